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
@pytest.mark.parametrize("shape", [(1,), (1, 1)], ids=["rank1", "rank2"])
def test_host_cell_passed_by_value_at_each_launch(shape):
    """A host cell that kernels only read is host memory, passed by value at each launch"""
    z = (0,) * len(shape)  # the cell's one element

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), n: T.int32, x: T.float32):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        for _ in range(n):
            c = T.alloc_local(shape, "float32")
            c[z] = x
            while c[z] < T.float32(100):
                with T.attr(T.target("cuda"), "target", 0):
                    i = T.launch_thread("threadIdx.x", 8)
                    A[i] = A[i] + c[z] * c[z]
                c[z] = c[z] * T.float32(2)
                with T.attr(T.target("cuda"), "target", 0):
                    i = T.launch_thread("threadIdx.x", 8)
                    A[i] = A[i] - c[z]

    After = tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), n: T.int32, x: T.float32):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        for _ in range(n):
            c = T.alloc_local(shape, "float32", annotations={"device_type": 1})
            c[z] = x
            while c[z] < T.float32(100):
                T.call_ffi_kernel("main_kernel", A.data, c[z], 8, launch_params=["threadIdx.x"])
                c[z] = c[z] * T.float32(2)
                T.call_ffi_kernel("main_kernel_1", A.data, c[z], 8, launch_params=["threadIdx.x"])

    tvm.ir.assert_structural_equal(After["main"], main)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar on the device")
def test_local_buffer_of_kernels_only_passed_by_pointer():
    """Kernels' buffers stay device memory, a buffer whose element a launch passes is host memory"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            h = T.alloc_local((2,), "float32")
            v = T.decl_buffer(1, data=T.address_of(c[0]), scope="local")
            T.call_ffi_kernel("write", v.data, h[1], launch_params=[])  # a launch by symbol
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread("threadIdx.x", 8)
                A[i] = A[i] + c[0]

        @T.prim_func(s_tir=True)
        def write(c: T.Buffer(1, "float32", scope="local"), x: T.float32):
            T.func_attr({"target": T.target("cuda")})
            c[0] = x

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        c = T.alloc_local((1,), "float32")
        h = T.alloc_local((2,), "float32", annotations={"device_type": 1})
        v = T.decl_buffer(1, data=T.address_of(c[0]), scope="local")
        T.call_ffi_kernel("write", v.data, h[1], launch_params=[])
        T.call_ffi_kernel("main_kernel", A.data, c.data, 8, launch_params=["threadIdx.x"])

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After["main"], main)


_HOST = pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar on the device")


@pytest.mark.parametrize(
    "target", [pytest.param(t, marks=_HOST) for t in ("opencl", "metal", "webgpu")] + ["ext_dev"]
)
def test_only_local_host_buffers_are_host_memory(target):
    """The host's local buffers, but a call's tensor, are host memory if a runtime runs kernels"""
    annotations = {"note": 1} if target in ["ext_dev", "hexagon"] else {"note": 1, "device_type": 1}

    @T.prim_func(s_tir=True)
    def main():
        T.func_attr({"target": T.target(target, host="llvm")})
        z = T.alloc_local((4,), "float32")
        x = T.alloc_local((4,), "float32", annotations={"note": 1})
        y = T.alloc_buffer((4,), "float32")
        x[0] = y[0]
        T.call_packed("fill", z)  # a tensor describes the device's memory, as a parameter's

    After = tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))

    @T.prim_func(s_tir=True)
    def main():
        T.func_attr({"target": T.target(target, host="llvm")})
        z = T.alloc_local((4,), "float32")
        x = T.alloc_local((4,), "float32", annotations=annotations)
        y = T.alloc_buffer((4,), "float32")
        x[0] = y[0]
        T.call_packed("fill", z)

    tvm.ir.assert_structural_equal(After["main"], main)


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="host-level scalar passed by pointer"
)
@pytest.mark.parametrize(
    "use, message",
    [
        ("store", "A kernel stores into `c`.*T.let"),
        ("address", "A kernel takes the address of `c`.*T.let"),
        ("view", "A kernel uses a view of `c`.*T.let"),
        ("vector", "A kernel loads an element of `c`.*bind each lane"),
        ("tensor", "A call receives `c` as a tensor"),
        ("array", "A kernel loads an element of `c`"),
        ("index", "A kernel loads an element of `c`"),
    ],
    ids=["store", "address", "view", "vector", "tensor", "array", "index"],
)
def test_kernel_needing_host_memory_is_rejected(use, message):
    """A kernel or a call's tensor that needs the pointer of host memory is an error"""

    z = (0, 0) if use == "array" else (0,)  # the array: (1, 4), one element in its first axis

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        c = T.alloc_local(
            (1, 4) if use == "array" else (1,), "float32x4" if use == "vector" else "float32"
        )
        p = T.address_of(c[z])  # a view of a view: v over a pointer bound to c's element
        v = T.decl_buffer((1,), "float32", data=p, scope="local")
        T.call_packed("fill", v.data, c if use == "tensor" else 0)  # the host's uses of c
        if use != "vector":  # a kernel reading c: the next kernel's use decides
            with T.attr(T.target("cuda"), "target", 0):
                j = T.launch_thread("threadIdx.x", 8)
                A[j] = c[z]
        T.attr(T.target("cuda"), "target", 0)
        i = T.launch_thread("blockIdx.x", 8)
        if use == "store":
            A[i] = c[z]
            c[z] = A[i]
        elif use == "address":  # the first use that needs the pointer names the error
            A[i] = T.call_extern("float32", "load", T.address_of(c[z]))
            c[z] = A[i]
        elif use == "vector":
            A[T.Ramp(0, 1, 4)] = c[z]
        elif use == "index":  # the one element, at an index the kernel computes
            A[i] = c[i // 8]
        else:
            A[i] = v[0] if use == "view" else c[z]

    with pytest.raises(ValueError, match=message):
        tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))


@pytest.mark.xfail(strict=True, raises=ValueError, reason="narrow kernel scalar parameter")
@pytest.mark.parametrize(
    "narrow, wide, target",
    [
        *[(narrow, "float32", "cuda") for narrow in ["float16", "bfloat16"]],
        *[(narrow, "int32", "cuda") for narrow in ["int4", "int8", "int16", "bool"]],
        *[(narrow, "uint32", "cuda") for narrow in ["uint8", "uint16"]],
        *[("int8", "int32", target) for target in ["rocm", "opencl", "vulkan", "metal", "webgpu"]],
    ],
)
def test_narrow_kernel_scalar_passed_widened(narrow, wide, target):
    """A kernel scalar narrower than 32 bits is passed widened and narrowed at the kernel's entry"""
    wide_ty = getattr(T, wide)
    kernel_attrs = {**_cuda_kernel_attrs(), "target": T.target(target)}

    # one PrimFunc at a time: inside an I.ir_module class, a parameter annotated with a type
    # bound in this function does not parse
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, narrow)):
        T.func_attr({"target": T.target(target, host="llvm")})
        x: T.let = A[0]  # typed by the load: TVMScript has no name for int4
        y: T.let = A[1]
        T.attr(T.target(target), "target", 0)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = T.Select(i < 4, x, y)

    Before = tvm.IRModule({"main": main})

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, narrow)):
        T.func_attr({"target": T.target(target, host="llvm")})
        x: T.let = A[0]
        y: T.let = A[1]
        T.call_ffi_kernel(
            "main_kernel", A.data, wide_ty(x), wide_ty(y), 8, launch_params=["threadIdx.x"]
        )

    @T.prim_func(s_tir=True)
    def main_kernel(A_data: T.handle(narrow, "global"), x: wide_ty, y: wide_ty):
        T.func_attr(kernel_attrs)
        x_1: T.let = T.Cast(narrow, x)
        y_1: T.let = T.Cast(narrow, y)
        A = T.decl_buffer(8, narrow, data=A_data)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = T.Select(i < 4, x_1, y_1)

    Expected = tvm.IRModule({"main": main, "main_kernel": main_kernel})
    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="narrow kernel scalar parameter")
def test_narrow_param_of_kernel_written_as_module_function_widened():
    """Launches from an llvm host of a module function kernel widen float16, not int32 or float8"""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(x: T.float16, n: T.int32, e: T.float8_e4m3fn):
            T.func_attr({"target": T.target("llvm")})
            Before.kernel(x, n, e)
            Before.kernel(x, n + 1, e)

        @T.prim_func(s_tir=True)
        def kernel(x: T.float16, n: T.int32, e: T.float8_e4m3fn):
            T.func_attr({"target": T.target("cuda"), "global_symbol": "add"})
            i = T.launch_thread("threadIdx.x", 8)
            T.evaluate(x + T.Cast("float16", i + n))

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(x: T.float16, n: T.int32, e: T.float8_e4m3fn):
            T.func_attr({"target": T.target("llvm")})
            T.call_ffi_kernel("add", T.float32(x), n, e, 8, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("add", T.float32(x), n + 1, e, 8, launch_params=["threadIdx.x"])

        @T.prim_func(s_tir=True)
        def kernel(x: T.float32, n: T.int32, e: T.float8_e4m3fn):
            T.func_attr(
                {
                    "target": T.target("cuda"),
                    "global_symbol": "add",
                    "calling_conv": 2,
                    "tirx.kernel_launch_params": ["threadIdx.x"],
                    "tirx.is_global_func": True,
                }
            )
            x_1: T.let[T.float16] = T.Cast("float16", x)
            i = T.launch_thread("threadIdx.x", 8)
            T.evaluate(x_1 + T.Cast("float16", i + n))

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


def test_kernel_no_runtime_launches_keeps_narrow_scalar():
    """A kernel no device runtime launches (ext_dev) keeps a narrow scalar parameter"""
    attrs = {**_cuda_kernel_attrs(), "target": T.target("ext_dev"), "tirx.kernel_launch_params": []}

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(n: T.int8):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            T.attr(T.target("ext_dev"), "target", 0)
            T.evaluate(n)

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(n: T.int8):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            kernel_error_code: T.let[T.int32] = T.call_ffi_kernel(
                "main_kernel", n, launch_params=[]
            )
            assert kernel_error_code == 0, "Error executing compute kernel"

        @T.prim_func(s_tir=True)
        def main_kernel(n: T.int8):
            T.func_attr(attrs)
            T.evaluate(n)

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@T.prim_func(s_tir=True)
def _host_with_kernel(A: T.Buffer(8, "float32")):
    T.func_attr({"target": T.target("cuda", host="llvm")})
    T.attr(T.target("cuda"), "target", 0)
    i = T.launch_thread("threadIdx.x", 8)
    A[i] = A[i] + T.float32(1)


@T.prim_func(s_tir=True)
def _host_only(A: T.Buffer(8, "float32")):
    T.func_attr({"target": T.target("llvm")})
    A[0] = T.float32(0)


@T.prim_func(s_tir=True)
def _no_thread(A: T.Buffer(8, "float32")):
    T.func_attr({"target": T.target("cuda", host="llvm")})
    T.attr(T.target("cuda"), "target", 0)
    A[0] = T.float32(1)


@pytest.mark.xfail(
    strict=True,
    raises=(ValueError, tvm.error.InternalError),
    reason="SplitHostDevice changes its input module in place",
)
@pytest.mark.parametrize("immutable_module", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize(
    "functions",
    [[_host_with_kernel], [_host_with_kernel] * 2, [_host_only, _host_with_kernel], [_no_thread]],
    ids=["1", "2", "host-first", "no-thread"],
)
def test_split_host_device_leaves_its_input_unchanged(functions, immutable_module):
    """SplitHostDevice returns a new module: the module it is given keeps its functions"""
    Before = tvm.IRModule({f"main{k}": func for k, func in enumerate(functions)})
    Expected = Before.clone()
    with tvm.transform.PassContext(config={"testing.immutable_module": immutable_module}):
        tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


def test_split_host_device_output_keeps_the_module_attributes():
    """SplitHostDevice's output keeps the module's attributes, global infos and functions"""

    @I.ir_module
    class Before:
        I.module_attrs({"note": "kept"})
        I.module_global_infos({"vdevice": [I.vdevice("llvm")]})

        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            T.attr(T.target("cuda"), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

        @T.prim_func(s_tir=True)
        def host_only(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("llvm")})
            A[0] = T.float32(0)

    @I.ir_module
    class Expected:
        I.module_attrs({"note": "kept"})
        I.module_global_infos({"vdevice": [I.vdevice("llvm")]})

        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            T.call_ffi_kernel("main_kernel", A.data, 8, launch_params=["threadIdx.x"])

        @T.prim_func(s_tir=True)
        def main_kernel(A_ptr: T.handle("float32")):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_buffer(8, data=A_ptr)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

        @T.prim_func(s_tir=True)
        def host_only(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("llvm")})
            A[0] = T.float32(0)

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.parametrize("kernel", [False, True], ids=["host-only", "kernel-call"])
def test_split_host_device_with_nothing_to_split_converts_to_ssa_and_lowers_calls(kernel):
    """With no device region to split, the output is in SSA form and kernel calls are launches"""

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            for i in range(8):
                A[i] = T.float32(0)
            if kernel:
                Module.split_kernel(A.data)

        @T.prim_func(private=True, s_tir=True)
        def split_kernel(A_ptr: T.handle("float32")):
            T.func_attr({"target": T.target("cuda")})
            A = T.decl_buffer(8, data=A_ptr)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    # the loop twice: its second copy binds the same variable again
    body = Module["main"].body
    loop, rest = (body.seq[0], list(body.seq[1:])) if kernel else (body, [])
    Before = Module.clone() if kernel else tvm.IRModule({"main": Module["main"]})
    Before["main"] = Module["main"].with_body(tvm.tirx.SeqStmt([loop, loop, *rest]))
    After = tvm.tirx.transform.SplitHostDevice()(Before)

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        for i in range(8):
            A[i] = T.float32(0)
        for i in range(8):
            A[i] = T.float32(0)
        if kernel:
            T.call_ffi_kernel("split_kernel", A.data, 8, launch_params=["threadIdx.x"])

    tvm.ir.assert_structural_equal(After["main"], main)


if __name__ == "__main__":
    tvm.testing.main()
