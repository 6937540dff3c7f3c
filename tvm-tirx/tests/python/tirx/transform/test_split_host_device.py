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
import tvm_tirx
import tvm_tirx.testing
from tvm_tirx.script import tirx as T

NARROW_TO_WIDE = [
    ("float16", "float32"),
    ("bfloat16", "float32"),
    ("int8", "int32"),
    ("int16", "int32"),
    ("uint8", "uint32"),
    ("uint16", "uint32"),
    ("bool", "int32"),
]
WIDE = ["float32", "float64", "int32", "uint32", "int64"]


def _cuda_target():
    """The target of a cuda function with an llvm host, as BindTarget gives it"""
    return T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})


def _cuda_kernel_attrs():
    """The attributes SplitHostDevice gives a cuda kernel launched over threadIdx.x"""
    return {
        "calling_conv": 2,
        "target": T.target({"kind": "cuda", "arch": "sm_80"}),
        "tirx.is_global_func": True,
        "tirx.kernel_launch_params": ["threadIdx.x"],
        "tirx.noalias": True,
    }


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar passed by pointer")
def test_host_scalar_cell_passed_by_value():
    """A host-level scalar cell that the kernel only reads is host memory, passed by value"""

    @T.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c: T.float32 = T.float32(0.0)
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = B[i] + c

    @T.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(
                ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
            )
            c[0] = T.float32(0.0)
            T.call_ffi_kernel("main_kernel", B.data, C.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), C_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            C = T.decl_tensor(C_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = B[i] + c

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


def test_plain_host_scalar_passed_by_value():
    """A plain host-level assignment is a T.let binding, passed to the kernel by value"""

    @T.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c = T.float32(0.0)
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = B[i] + c

    @T.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c: T.let[T.float32] = T.float32(0.0)
            T.call_ffi_kernel("main_kernel", B.data, C.data, c, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), C_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            C = T.decl_tensor(C_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = B[i] + c

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar passed by pointer")
@pytest.mark.parametrize("dtype", WIDE)
def test_host_cell_allocated_under_host_control_flow_passed_by_value(dtype):
    """A host cell allocated inside a host for and if is host memory, passed by value"""
    scalar = getattr(T, dtype)

    @T.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), dtype), n: T.int32):
            T.func_attr({"target": _cuda_target()})
            for j in range(n):
                if j % 2 == 0:
                    c = T.alloc_tensor(ty_args=[T.Tensor((1,), dtype, scope="local")])
                    c[0] = T.Cast(dtype, j)
                    with T.launch_thread("threadIdx.x", 8) as i:
                        B[i] = B[i] + c[0]

    @T.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), dtype), n: T.int32):
            T.func_attr({"target": _cuda_target()})
            for j in range(n):
                if j % 2 == 0:
                    c = T.alloc_tensor(
                        ty_args=[T.Tensor((1,), dtype, scope="local")],
                        annotations={"device_type": 1},
                    )
                    c[0] = T.Cast(dtype, j)
                    T.call_ffi_kernel("main_kernel", B.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(scalar), c: scalar):
            T.func_attr(_cuda_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), dtype)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = B[i] + c

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar passed by pointer")
def test_host_cell_read_by_two_kernels_passed_by_value_to_each():
    """A host cell that two kernels read is passed by value to each of them"""

    @T.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": _cuda_target()})
            c: T.float32 = x
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = c

    @T.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(
                ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
            )
            c[0] = x
            T.call_ffi_kernel("main_kernel", B.data, c[0], 8, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("main_kernel_1", C.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c

        @T.function
        def main_kernel_1(C_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            C = T.decl_tensor(C_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = c

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.parametrize("kind", ["ext_dev", "hexagon"])
def test_host_cell_of_kernels_no_device_runtime_launches_left_alone(kind):
    """A host cell read by a kernel that no device runtime launches is left as it is"""

    @T.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": T.target({"kind": kind, "host": "llvm"})})
            c: T.float32 = x
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c

    @T.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": T.target({"kind": kind, "host": "llvm"})})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            c[0] = x
            kernel_error_code: T.let[T.int32] = T.call_ffi_kernel(
                "main_kernel", B.data, c.data, 8, launch_params=["threadIdx.x"]
            )
            assert kernel_error_code == 0, ("RuntimeError", ["Error executing compute kernel"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(
                {
                    "calling_conv": 2,
                    "target": T.target({"kind": kind}),
                    "tirx.is_global_func": True,
                    "tirx.kernel_launch_params": ["threadIdx.x"],
                    "tirx.noalias": True,
                }
            )
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c[0]

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


def test_local_cell_of_kernels_passed_by_pointer():
    """A local cell that only kernels use stays device memory, passed to each by pointer"""

    @T.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                c[0] = A[i]
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

    @T.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            T.call_ffi_kernel("main_kernel", A.data, c.data, 8, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("main_kernel_1", A.data, c.data, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32), c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                c[0] = A[i]

        @T.function
        def main_kernel_1(A_ptr: T.Ptr(T.float32), c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_cuda_kernel_attrs())
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.parametrize(
    "view", [lambda c: c.data, lambda c: T.address_of(c[0])], ids=["data", "address_of"]
)
def test_host_view_of_kernel_tensor_leaves_it_device_memory(view):
    """A view the host declares is no host access: kernels share the tensor behind it"""

    @T.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(ty_args=[T.Tensor((8,), T.float32, scope="local")])
            v = T.decl_tensor(view(c), ty_args=[T.Tensor((8,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                v[i] = A[i]
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = v[i]

    @T.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(ty_args=[T.Tensor((8,), T.float32, scope="local")])
            v = T.decl_tensor(view(c), ty_args=[T.Tensor((8,), T.float32, scope="local")])
            T.call_ffi_kernel("main_kernel", A.data, v.data, 8, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("main_kernel_1", A.data, v.data, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32), v_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            v = T.decl_tensor(v_ptr, ty_args=[T.Tensor((8,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                v[i] = A[i]

        @T.function
        def main_kernel_1(A_ptr: T.Ptr(T.float32), v_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_cuda_kernel_attrs())
            v = T.decl_tensor(v_ptr, ty_args=[T.Tensor((8,), T.float32, scope="local")])
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = v[i]

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar passed by pointer")
@pytest.mark.parametrize("call", [T.call_packed, T.call_extern])
def test_host_cell_handed_to_call_is_host_memory(call):
    """A cell whose pointer the host hands to a packed or extern call is host memory"""

    @T.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            call("fill", c.data, ty=T.int32)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

    @T.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(
                ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
            )
            call("fill", c.data, ty=T.int32)
            T.call_ffi_kernel("main_kernel", A.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar passed by pointer")
def test_host_cell_passed_with_its_value_at_each_launch():
    """Each launch passes the value a host cell holds at that launch"""

    @T.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            c[0] = x
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]
            c[0] = c[0] * T.float32(2.0)
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c[0]

    @T.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": _cuda_target()})
            c = T.alloc_tensor(
                ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
            )
            c[0] = x
            T.call_ffi_kernel("main_kernel", A.data, c[0], 8, launch_params=["threadIdx.x"])
            c[0] = c[0] * T.float32(2.0)
            T.call_ffi_kernel("main_kernel_1", B.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c

        @T.function
        def main_kernel_1(B_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar on the device")
@pytest.mark.parametrize("size", [4, 256, 4096, None], ids=["16B", "1KiB", "16KiB", "symbolic"])
def test_host_arrays_are_host_memory(size):
    """A local tensor that only the host code uses is host memory, whatever its size"""

    @T.ir_module
    class Before:
        @T.function
        def main(n: T.int32):
            T.func_attr({"target": _cuda_target()})
            y = T.alloc_tensor(
                ty_args=[T.Tensor((n if size is None else size,), T.float32, scope="local")]
            )
            g = T.alloc_tensor(ty_args=[T.Tensor((4,), T.float32)])
            y[0] = T.float32(1.5)
            T.call_packed("fill", g.data, y[0])

    @T.ir_module
    class Expected:
        @T.function
        def main(n: T.int32):
            T.func_attr({"target": _cuda_target()})
            y = T.alloc_tensor(
                ty_args=[T.Tensor((n if size is None else size,), T.float32, scope="local")],
                annotations={"device_type": 1},
            )
            g = T.alloc_tensor(ty_args=[T.Tensor((4,), T.float32)])
            y[0] = T.float32(1.5)
            T.call_packed("fill", g.data, y[0])

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@T.function
def _kernel_stores_into_cell(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": _cuda_target()})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        c[0] = A[i]


@T.function
def _kernel_takes_address_of_cell(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": _cuda_target()})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = T.call_extern("load", T.address_of(c[0]), ty=T.float32)


@T.function
def _kernel_indexes_host_array(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": _cuda_target()})
    x = T.alloc_tensor(ty_args=[T.Tensor((8,), T.float32, scope="local")])
    x[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = x[i]


@T.function
def _kernel_reads_address_of_view(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": _cuda_target()})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    v = T.decl_tensor(T.address_of(c[0]), ty_args=[T.Tensor((1,), T.float32, scope="local")])
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = v[0]


@T.function
def _kernel_reads_view_of_bound_pointer(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": _cuda_target()})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    p: T.let[T.Ptr(T.float32, "local")] = c.data
    v = T.decl_tensor(p, ty_args=[T.Tensor((1,), T.float32, scope="local")])
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = v[0]


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="host-level scalar passed by pointer"
)
@pytest.mark.parametrize(
    "func, use",
    [
        (_kernel_stores_into_cell, "stores into `c`"),
        (_kernel_takes_address_of_cell, "takes the address of `c`"),
        (_kernel_indexes_host_array, "loads an element of `x`"),
        (_kernel_reads_address_of_view, "uses a view of `c`"),
        (_kernel_reads_view_of_bound_pointer, "uses a view of `c`"),
    ],
    ids=["store", "address", "index", "address_of-view", "bound-pointer-view"],
)
def test_kernel_needing_host_memory_is_rejected(func, use):
    """A kernel that writes, addresses, indexes or views host memory in any form is an error"""
    with pytest.raises(ValueError, match=f"A kernel {use}.*T.let"):
        tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.ir.IRModule({"main": func}))


@pytest.mark.xfail(strict=True, raises=ValueError, reason="narrow kernel scalar parameter")
@pytest.mark.parametrize("narrow, wide", NARROW_TO_WIDE)
def test_narrow_kernel_scalar_widened_to_32_bits(narrow, wide):
    """A kernel scalar narrower than 32 bits is passed as 32 bits and narrowed at kernel entry"""
    scalar = getattr(T, narrow)

    @T.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": _cuda_target()})
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x)

    @T.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": _cuda_target()})
            T.call_ffi_kernel(
                "main_kernel", B.data, T.Cast(wide, x), 8, launch_params=["threadIdx.x"]
            )

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), x: getattr(T, wide)):
            T.func_attr(_cuda_kernel_attrs())
            x_1: T.let[scalar] = T.Cast(narrow, x)
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x_1)

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="narrow kernel scalar parameter")
@pytest.mark.parametrize("narrow", ["float16", "bfloat16"])
def test_narrow_let_scalar_widened_to_float32(narrow):
    """A 16-bit float the host computes (a T.let) reaches the kernel as float32"""
    scalar = getattr(T, narrow)

    @T.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": _cuda_target()})
            c: T.let[scalar] = x * scalar(2)
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", c)

    @T.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": _cuda_target()})
            c: T.let[scalar] = x * scalar(2)
            T.call_ffi_kernel(
                "main_kernel", B.data, T.Cast("float32", c), 8, launch_params=["threadIdx.x"]
            )

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            c_1: T.let[scalar] = T.Cast(narrow, c)
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", c_1)

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="narrow kernel scalar parameter")
@pytest.mark.parametrize("narrow, wide", NARROW_TO_WIDE)
def test_narrow_param_of_kernel_written_as_module_function_widened(narrow, wide):
    """A kernel written as a module function and launched by the host gets 32-bit scalars"""
    scalar = getattr(T, narrow)

    @T.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": _cuda_target()})
            Before.kernel(B.data, x)

        @T.function(private=True)
        def kernel(b: T.Ptr(T.float32), x: scalar):
            T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"})})
            B = T.decl_tensor(b, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x)

    @T.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": _cuda_target()})
            T.call_ffi_kernel("kernel", B.data, T.Cast(wide, x), 8, launch_params=["threadIdx.x"])

        @T.function
        def kernel(b: T.Ptr(T.float32), x: getattr(T, wide)):
            T.func_attr(
                {
                    "calling_conv": 2,
                    "target": T.target({"kind": "cuda", "arch": "sm_80"}),
                    "tirx.is_global_func": True,
                    "tirx.kernel_launch_params": ["threadIdx.x"],
                }
            )
            x_1: T.let[scalar] = T.Cast(narrow, x)
            B = T.decl_tensor(b, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x_1)

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.parametrize("dtype", WIDE)
def test_wide_kernel_scalar_keeps_its_type(dtype):
    """A 32- or 64-bit kernel scalar is passed as a parameter of its own type"""
    scalar = getattr(T, dtype)

    @T.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": _cuda_target()})
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x)

    @T.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": _cuda_target()})
            T.call_ffi_kernel("main_kernel", B.data, x, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), x: scalar):
            T.func_attr(_cuda_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x)

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.parametrize("narrow", [narrow for narrow, _ in NARROW_TO_WIDE])
def test_narrow_scalar_of_cpu_kernel_unchanged(narrow):
    """A kernel called directly on the CPU keeps its narrow parameter: no runtime packs it"""
    scalar = getattr(T, narrow)

    @T.ir_module
    class Before:
        @T.function
        def main(x: scalar):
            T.func_attr({"target": _cuda_target()})
            with T.device_scope(attrs={"target": T.target("llvm")}):
                T.evaluate(x)

    @T.ir_module
    class Expected:
        @T.function
        def main(x: scalar):
            T.func_attr({"target": _cuda_target()})
            kernel_error_code: T.let[T.int32] = T.Call(Expected.main_kernel, [x], ty=T.int32)
            assert kernel_error_code == 0, ("RuntimeError", ["Error executing compute kernel"])

        @T.function(private=True)
        def main_kernel(x: scalar) -> T.int32:
            T.func_attr(
                {"target": T.target("llvm"), "tirx.is_global_func": True, "tirx.noalias": True}
            )
            T.evaluate(x)
            return 0

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(
    strict=True, raises=ValueError, reason="SplitHostDevice changes its input module in place"
)
@pytest.mark.parametrize("kernels", [1, 2])
def test_split_host_device_leaves_its_input_unchanged(kernels):
    """SplitHostDevice returns a new module: the module it is given keeps its functions"""

    @T.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": _cuda_target()})
            for _ in range(kernels):
                with T.launch_thread("threadIdx.x", 8) as i:
                    A[i] = A[i] + T.float32(1)

    Expected = Before.clone()
    tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(Before, Expected)


def test_split_host_device_without_kernels_leaves_its_input_unchanged():
    """A module without device regions is not changed, neither is the module given"""

    @T.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target("llvm")})
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    Expected = Before.clone()
    tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(Before, Expected)


@T.function
def _uint64_argument_read_by_kernel(A: T.Tensor((8,), "uint64"), x: T.uint64):
    T.func_attr({"target": _cuda_target()})
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = x


@T.function
def _uint64_let_read_by_kernel(A: T.Tensor((8,), "uint64"), n: T.int32):
    T.func_attr({"target": _cuda_target()})
    x = T.Cast("uint64", n) + T.uint64(1)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = x


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="uint64 kernel scalar compiles, cannot launch"
)
@pytest.mark.parametrize(
    "func", [_uint64_argument_read_by_kernel, _uint64_let_read_by_kernel], ids=["argument", "let"]
)
def test_uint64_kernel_scalar_is_rejected(func):
    """A uint64 scalar of a GPU kernel is an error at compile time: no GPU runtime passes it"""
    with pytest.raises(ValueError, match="uint64"):
        tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.IRModule({"main": func}))


@pytest.mark.parametrize("offset", [0, 1])
def test_uint64_scalar_of_cpu_kernel_unchanged(offset):
    """A kernel called directly on the CPU keeps its uint64 parameter: no runtime packs it"""

    @T.ir_module
    class Before:
        @T.function
        def main(x: T.uint64):
            T.func_attr({"target": _cuda_target()})
            with T.device_scope(attrs={"target": T.target("llvm")}):
                T.evaluate(x + T.uint64(offset))

    @T.ir_module
    class Expected:
        @T.function
        def main(x: T.uint64):
            T.func_attr({"target": _cuda_target()})
            kernel_error_code: T.let[T.int32] = T.Call(Expected.main_kernel, [x], ty=T.int32)
            assert kernel_error_code == 0, ("RuntimeError", ["Error executing compute kernel"])

        @T.function(private=True)
        def main_kernel(x: T.uint64) -> T.int32:
            T.func_attr(
                {"target": T.target("llvm"), "tirx.is_global_func": True, "tirx.noalias": True}
            )
            T.evaluate(x + T.uint64(offset))
            return 0

    After = tvm_tirx.tirx.transform.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


if __name__ == "__main__":
    tvm_tirx.testing.main()
