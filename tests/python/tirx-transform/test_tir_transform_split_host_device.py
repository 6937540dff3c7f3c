# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#   http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing,
# software distributed under the License is distributed on an
# "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
# KIND, either express or implied.  See the License for the
# specific language governing permissions and limitations
# under the License.

import pytest

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T


def _cuda_kernel_attrs():
    """The attributes SplitHostDevice gives a cuda kernel launched over threadIdx.x"""
    return {
        "target": T.target("cuda"),
        "calling_conv": 2,
        "tirx.kernel_launch_params": ["threadIdx.x"],
        "tirx.noalias": True,
        "tirx.is_global_func": True,
    }


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar passed by pointer")
@pytest.mark.parametrize("write", ["store", "call"])
def test_host_cell_passed_by_value_at_each_launch(write):
    """A host cell that kernels only read is host memory, passed by value at each launch"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32"), n: T.int32, x: T.float32):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            for _ in range(n):
                c = T.alloc_local((1,), "float32")
                if write == "store":
                    c[0] = x
                else:
                    T.call_extern("int32", "fill", c.data)
                with T.attr(T.target("cuda"), "target", 0):
                    i = T.launch_thread("threadIdx.x", 8)
                    A[i] = A[i] + c[0]
                if write == "store":
                    c[0] = c[0] * T.float32(2)
                else:
                    T.call_extern("int32", "fill", c.data)
                with T.attr(T.target("cuda"), "target", 0):
                    i = T.launch_thread("threadIdx.x", 8)
                    A[i] = A[i] - c[0]

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32"), n: T.int32, x: T.float32):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            for _ in range(n):
                c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
                if write == "store":
                    c[0] = x
                else:
                    T.call_extern("int32", "fill", c.data)
                T.call_ffi_kernel("main_kernel", A.data, c[0], 8, launch_params=["threadIdx.x"])
                if write == "store":
                    c[0] = c[0] * T.float32(2)
                else:
                    T.call_extern("int32", "fill", c.data)
                T.call_ffi_kernel("main_kernel_1", A.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.prim_func(s_tir=True)
        def main_kernel(A_data: T.handle("float32"), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_buffer(8, data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + c

        @T.prim_func(s_tir=True)
        def main_kernel_1(A_data: T.handle("float32"), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_buffer(8, data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] - c

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.parametrize("view", ["data", "address_of"])
def test_local_buffer_of_kernels_only_passed_by_pointer(view):
    """A local buffer only kernels use (host views, module kernels included) is device memory"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            v = T.decl_buffer(
                1, data=c.data if view == "data" else T.address_of(c[0]), scope="local"
            )
            Before.write(v.data)
            T.call_ffi_kernel("read", A.data, c.data, 8, launch_params=["threadIdx.x"])
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread("threadIdx.x", 8)
                A[i] = A[i] + c[0]

        @T.prim_func(private=True, s_tir=True)
        def write(c_data: T.handle("float32", "local")):
            T.func_attr({"target": T.target("cuda")})
            c = T.decl_buffer(1, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", 1)
            c[i] = T.float32(1)

        @T.prim_func(s_tir=True)
        def read(A_data: T.handle("float32"), c_data: T.handle("float32", "local")):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_buffer(8, data=A_data)
            c = T.decl_buffer(1, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = c[0]

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            v = T.decl_buffer(
                1, data=c.data if view == "data" else T.address_of(c[0]), scope="local"
            )
            T.call_ffi_kernel("write", v.data, 1, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("read", A.data, c.data, 8, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("main_kernel", A.data, c.data, 8, launch_params=["threadIdx.x"])

        @T.prim_func(s_tir=True)
        def write(c_data: T.handle("float32", "local")):
            T.func_attr({k: v for k, v in _cuda_kernel_attrs().items() if k != "tirx.noalias"})
            c = T.decl_buffer(1, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", 1)
            c[i] = T.float32(1)

        @T.prim_func(s_tir=True)
        def read(A_data: T.handle("float32"), c_data: T.handle("float32", "local")):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_buffer(8, data=A_data)
            c = T.decl_buffer(1, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = c[0]

        @T.prim_func(s_tir=True)
        def main_kernel(A_data: T.handle("float32"), c_data: T.handle("float32", "local")):
            T.func_attr(_cuda_kernel_attrs())
            c = T.decl_buffer(1, data=c_data, scope="local")
            A = T.decl_buffer(8, data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + c[0]

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


_RUNTIMES = ["cuda", "rocm", "vulkan", "metal", "opencl", "webgpu"]
_HOST_MEMORY = pytest.mark.xfail(
    strict=True, raises=ValueError, reason="host-level scalar on the device"
)


@pytest.mark.parametrize(
    "scope, target",
    [
        *[pytest.param("local", target, marks=_HOST_MEMORY) for target in _RUNTIMES],
        *[("global", target) for target in _RUNTIMES],
        ("local", "ext_dev"),
        ("local", "hexagon"),
    ],
)
def test_only_local_host_buffers_are_host_memory(scope, target):
    """A local buffer only the host code uses is host memory if a device runtime runs the kernels"""
    host_memory = scope == "local" and target in _RUNTIMES

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main():
            T.func_attr({"target": T.target(target, host="llvm")})
            y = T.alloc_buffer((4,), "float32", scope=scope, annotations={"note": 1})
            y[0] = T.float32(1.5)
            T.call_packed("fill", y[0])

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main():
            T.func_attr({"target": T.target(target, host="llvm")})
            y = T.alloc_buffer(
                (4,),
                "float32",
                scope=scope,
                annotations={"note": 1, "device_type": 1} if host_memory else {"note": 1},
            )
            y[0] = T.float32(1.5)
            T.call_packed("fill", y[0])

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="host-level scalar passed by pointer"
)
@pytest.mark.parametrize(
    "use, thread, message",
    [
        ("store", "threadIdx.x", "stores into `c`"),
        ("address", "threadIdx.x", "takes the address of `c`"),
        ("index", "threadIdx.x", "loads an element of `c`"),
        ("view", "threadIdx.x", "uses a view of `c`"),
        ("vector", "threadIdx.x", "loads an element of `c`.*bind each lane"),
        ("store", "blockIdx.x", "stores into `c`"),
        ("read-then-store", "threadIdx.x", "stores into `c`"),
    ],
    ids=["store", "address", "index", "view", "vector", "store-blockIdx.x", "read-then-store"],
)
def test_kernel_needing_host_memory_is_rejected(use, thread, message):
    """A kernel that writes, addresses, indexes, views host memory or loads a vector is an error"""
    shape = (1,) if use in ["vector", "read-then-store"] else (8,)
    dtype = "float32x4" if use == "vector" else "float32"

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        c = T.alloc_local(shape, dtype)
        c[0] = getattr(T, dtype)(0)
        v = T.decl_buffer((8,), "float32", data=T.address_of(c[0]), scope="local")
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread(thread, 8)
        if use == "store":
            c[i] = A[i]
        elif use == "read-then-store":
            A[i] = c[0]
            c[0] = A[i]
        elif use == "address":
            A[i] = T.call_extern("float32", "load", T.address_of(c[i]))
        elif use == "vector":
            A[T.Ramp(0, 1, 4)] = c[0]
        else:
            A[i] = c[i] if use == "index" else v[i]

    with pytest.raises(ValueError, match=f"A kernel {message}.*T.let"):
        tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))


@pytest.mark.xfail(strict=True, raises=ValueError, reason="narrow kernel scalar parameter")
@pytest.mark.parametrize(
    "narrow, wide, target",
    [
        ("float16", "float32", "cuda"),
        ("bfloat16", "float32", "cuda"),
        ("int8", "int32", "cuda"),
        ("int16", "int32", "cuda"),
        ("bool", "int32", "cuda"),
        ("uint8", "uint32", "cuda"),
        ("uint16", "uint32", "cuda"),
        *[("int8", "int32", target) for target in ["rocm", "opencl", "vulkan", "metal", "webgpu"]],
    ],
)
def test_narrow_kernel_scalar_passed_widened(narrow, wide, target):
    """A kernel scalar narrower than 32 bits is passed widened and narrowed at the kernel's entry"""
    narrow_ty, wide_ty = getattr(T, narrow), getattr(T, wide)
    kernel_attrs = {**_cuda_kernel_attrs(), "target": T.target(target)}

    # one PrimFunc at a time: inside an I.ir_module class, a parameter annotated with a type
    # bound in this function does not parse
    @T.prim_func(s_tir=True)
    def main(x: narrow_ty, y: narrow_ty):
        T.func_attr({"target": T.target(target, host="llvm")})
        T.attr(T.target(target), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        T.evaluate(T.Select(i < 4, x, y))

    Before = tvm.IRModule({"main": main})

    @T.prim_func(s_tir=True)
    def main(x: narrow_ty, y: narrow_ty):
        T.func_attr({"target": T.target(target, host="llvm")})
        T.call_ffi_kernel(
            "main_kernel", T.Cast(wide, x), T.Cast(wide, y), 8, launch_params=["threadIdx.x"]
        )

    @T.prim_func(s_tir=True)
    def main_kernel(x: wide_ty, y: wide_ty):
        T.func_attr(kernel_attrs)
        x_1: T.let[narrow_ty] = T.Cast(narrow, x)
        y_1: T.let[narrow_ty] = T.Cast(narrow, y)
        i = T.launch_thread("threadIdx.x", 8)
        T.evaluate(T.Select(i < 4, x_1, y_1))

    Expected = tvm.IRModule({"main": main, "main_kernel": main_kernel})
    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="narrow kernel scalar parameter")
def test_narrow_param_of_kernel_written_as_module_function_widened():
    """A kernel written as a module function and launched by the host takes float16 as float32"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(x: T.float16):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            Before.kernel(x)

        @T.prim_func(private=True, s_tir=True)
        def kernel(x: T.float16):
            T.func_attr({"target": T.target("cuda")})
            i = T.launch_thread("threadIdx.x", 8)
            T.evaluate(x + T.Cast("float16", i))

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(x: T.float16):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            T.call_ffi_kernel("kernel", T.Cast("float32", x), 8, launch_params=["threadIdx.x"])

        @T.prim_func(s_tir=True)
        def kernel(x: T.float32):
            T.func_attr(
                {
                    "target": T.target("cuda"),
                    "calling_conv": 2,
                    "tirx.kernel_launch_params": ["threadIdx.x"],
                    "tirx.is_global_func": True,
                }
            )
            x_1: T.let[T.float16] = T.Cast("float16", x)
            i = T.launch_thread("threadIdx.x", 8)
            T.evaluate(x_1 + T.Cast("float16", i))

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


def test_split_host_device_on_cpu_narrow_scalar():
    """A kernel running on the CPU keeps a narrow scalar parameter: no runtime passes it"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(n: T.int8):
            T.func_attr({"target": T.target("cuda", host={"kind": "llvm", "opt-level": 0})})
            T.attr(T.target("llvm"), "target", 0)
            T.evaluate(n)

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(n: T.int8):
            T.func_attr({"target": T.target("cuda", host={"kind": "llvm", "opt-level": 0})})
            kernel_error_code: T.let[T.int32] = T.call_extern("int32", "main_kernel", n)
            assert kernel_error_code == 0, "Error executing compute kernel"

        @T.prim_func(s_tir=True)
        def main_kernel(n: T.int8) -> T.int32:
            T.func_attr(
                {"target": T.target("llvm"), "tirx.noalias": True, "tirx.is_global_func": True}
            )
            T.evaluate(n)
            return 0

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(
    strict=True, raises=ValueError, reason="SplitHostDevice changes its input module in place"
)
@pytest.mark.parametrize("kernels, functions", [(1, 1), (2, 1), (1, 2), (2, 2)])
def test_split_host_device_leaves_its_input_unchanged(kernels, functions):
    """SplitHostDevice returns a new module: the module it is given keeps its functions"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread("threadIdx.x", 8)
                A[i] = A[i] + T.float32(1)
            if kernels == 2:
                with T.attr(T.target("cuda"), "target", 0):
                    i = T.launch_thread("threadIdx.x", 8)
                    A[i] = A[i] * T.float32(2)

    if functions == 2:
        Before = tvm.IRModule({**Before.functions, "other": Before["main"]})
    Expected = Before.clone()
    tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


@pytest.mark.parametrize("functions", [1, 2])
def test_split_host_device_output_keeps_the_module_attributes(functions):
    """The module SplitHostDevice returns keeps the attributes of the module it is given"""

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        with T.attr(T.target("cuda"), "target", 0):
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    funcs = {"main": main, "other": main} if functions == 2 else {"main": main}
    Before = tvm.IRModule(funcs, attrs={"note": "kept"})
    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After.attrs, Before.attrs)


def test_split_host_device_without_kernels_leaves_its_input_unchanged():
    """A module without device regions is not changed, neither is the module given"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("llvm")})
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    Expected = Before.clone()
    tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


if __name__ == "__main__":
    tvm.testing.main()
