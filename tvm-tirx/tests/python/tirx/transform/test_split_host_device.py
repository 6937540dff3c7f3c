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
from tvm_tirx.script import ir as I
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx import transform as tr

# a cuda function as BindTarget leaves it (llvm host), and the target its kernels get; an
# explicit arch, so that nothing asks for a GPU
CUDA_ON_LLVM = T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})
CUDA = T.target({"kind": "cuda", "arch": "sm_80"})
# scalar dtypes under 32 bits and the 32-bit type call_ffi_kernel hands the kernel instead
WIDENED = {
    "float16": "float32",
    "bfloat16": "float32",
    "int8": "int32",
    "int16": "int32",
    "uint8": "uint32",
    "uint16": "uint32",
    "bool": "int32",
    "int4": "int32",
}
HOST_CELL = "host-level scalar passed by pointer"
HOST_ONLY = "host-level scalar on the device"


def _kernel_attrs(target=CUDA):
    """The attributes of a kernel that SplitHostDevice cuts out of a threadIdx.x region"""
    return {
        "calling_conv": 2,
        "target": target,
        "tirx.is_global_func": True,
        "tirx.kernel_launch_params": ["threadIdx.x"],
        "tirx.noalias": True,
    }


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_CELL)
def test_annotated_scalar_read_by_kernel_is_call_ffi_kernel_argument():
    """`c: T.float32 = ...` that a launch region only reads becomes a CPU cell passed as c[0]"""

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c: T.float32 = T.float32(0.0)
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = B[i] + c

    @I.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(
                ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
            )
            c[0] = T.float32(0.0)
            T.call_ffi_kernel("main_kernel", B.data, C.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), C_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            C = T.decl_tensor(C_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = B[i] + c

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


def test_bound_scalar_read_by_kernel_is_call_ffi_kernel_argument():
    """`c = ...` is a Bind, not a cell: the kernel gets c as a call_ffi_kernel argument"""

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.float32(0.0)
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = B[i] + c

    @I.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c: T.let[T.float32] = T.float32(0.0)
            T.call_ffi_kernel("main_kernel", B.data, C.data, c, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), C_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            C = T.decl_tensor(C_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = B[i] + c

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_CELL)
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_cell_allocated_in_host_loop_and_branch_keeps_its_dtype_as_argument(dtype):
    """A cell alloc_tensor'd inside a host for/if reaches the kernel as a scalar of its dtype"""
    scalar = getattr(T, dtype)

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), dtype), n: T.int32):
            T.func_attr({"target": CUDA_ON_LLVM})
            for j in range(n):
                if j % 2 == 0:
                    c = T.alloc_tensor(ty_args=[T.Tensor((1,), dtype, scope="local")])
                    c[0] = T.Cast(dtype, j)
                    with T.launch_thread("threadIdx.x", 8) as i:
                        B[i] = B[i] + c[0]

    @I.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), dtype), n: T.int32):
            T.func_attr({"target": CUDA_ON_LLVM})
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
            T.func_attr(_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), dtype)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = B[i] + c

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_CELL)
def test_two_launch_regions_reading_one_cell_each_get_it_by_value():
    """Both kernels cut from two launch regions that read one host cell take it as a scalar"""

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": CUDA_ON_LLVM})
            c: T.float32 = x
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = c

    @I.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(
                ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
            )
            c[0] = x
            T.call_ffi_kernel("main_kernel", B.data, c[0], 8, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("main_kernel_1", C.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c

        @T.function
        def main_kernel_1(C_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_kernel_attrs())
            C = T.decl_tensor(C_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = c

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_CELL)
def test_host_store_between_launches_reaches_the_later_kernel():
    """A cell the host updates between two launches is read at each call_ffi_kernel"""

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            c[0] = x
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]
            c[0] = c[0] * T.float32(2.0)
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c[0]

    @I.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(
                ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
            )
            c[0] = x
            T.call_ffi_kernel("main_kernel", A.data, c[0], 8, launch_params=["threadIdx.x"])
            c[0] = c[0] * T.float32(2.0)
            T.call_ffi_kernel("main_kernel_1", B.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c

        @T.function
        def main_kernel_1(B_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_CELL)
@pytest.mark.parametrize("shape", [(1,), (1, 1), (1, 1, 1)], ids=["rank1", "rank2", "rank3"])
def test_every_cell_kernels_in_a_host_while_loop_read_is_one_call_ffi_kernel_argument(shape):
    """Two cells a kernel in a while loop reads, c twice, d of any rank, are two scalars"""
    zero = (0,) * len(shape)

    @T.function
    def main(A: T.Tensor((8,), "float32"), x: T.float32):
        T.func_attr({"target": CUDA_ON_LLVM})
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        d = T.alloc_tensor(ty_args=[T.Tensor(shape, T.float32, scope="local")])
        c[0] = x
        d[zero] = x * T.float32(2.0)
        while c[0] < T.float32(100.0):
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] * c[0] + d[zero] * c[0]
            c[0] = c[0] * T.float32(2.0)

    After = tr.SplitHostDevice()(tvm_tirx.IRModule({"main": main}))

    @T.function
    def main(A: T.Tensor((8,), "float32"), x: T.float32):
        T.func_attr({"target": CUDA_ON_LLVM})
        c = T.alloc_tensor(
            ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
        )
        d = T.alloc_tensor(
            ty_args=[T.Tensor(shape, T.float32, scope="local")], annotations={"device_type": 1}
        )
        c[0] = x
        d[zero] = x * T.float32(2.0)
        while c[0] < T.float32(100.0):
            T.call_ffi_kernel(
                "main_kernel", A.data, c[0], d[zero], 8, launch_params=["threadIdx.x"]
            )
            c[0] = c[0] * T.float32(2.0)

    tvm_tirx.ir.assert_structural_equal(After["main"], main)


@pytest.mark.xfail(strict=True, raises=pytest.fail.Exception, reason=HOST_CELL)
@pytest.mark.parametrize(
    "pointer", [lambda c: c.data, lambda c: T.address_of(c[0])], ids=["data", "address_of"]
)
def test_cell_the_host_stores_and_call_packed_receives_as_a_tensor_is_a_value_error(pointer):
    """A cell the host stores into is host memory: call_packed cannot receive it as a tensor"""

    @T.function
    def main():
        T.func_attr({"target": CUDA_ON_LLVM})
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        v = T.decl_tensor(pointer(c), ty_args=[T.Tensor((1,), T.float32, scope="local")])
        c[0] = T.float32(1.5)
        T.call_packed("fill", v)

    with pytest.raises(ValueError, match="A call receives `c` as a tensor"):
        tr.SplitHostDevice()(tvm_tirx.IRModule({"main": main}))


@pytest.mark.parametrize("kind", ["ext_dev", "hexagon"])
def test_cell_of_kernel_called_as_function_keeps_its_pointer(kind):
    """ext_dev and hexagon kernels run without a device runtime: a cell stays a Ptr argument"""

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: T.float32):
            T.func_attr({"target": T.target({"kind": kind, "host": "llvm"})})
            c: T.float32 = x
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c

    @I.ir_module
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
            T.func_attr(_kernel_attrs(T.target({"kind": kind})))
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = c[0]

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


def test_cell_one_kernel_writes_and_next_reads_stays_on_device():
    """A cell that only kernels touch, one storing and one loading, stays a device Ptr"""

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                c[0] = A[i]
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

    @I.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            T.call_ffi_kernel("main_kernel", A.data, c.data, 8, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("main_kernel_1", A.data, c.data, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32), c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                c[0] = A[i]

        @T.function
        def main_kernel_1(A_ptr: T.Ptr(T.float32), c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_kernel_attrs())
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.parametrize(
    "pointer", [lambda c: c.data, lambda c: T.address_of(c[0])], ids=["data", "address_of"]
)
def test_cell_handed_only_to_module_function_kernels_stays_on_device(pointer):
    """A cell whose Ptr the host hands only to module-function kernels stays a device Ptr"""
    # SplitHostDevice marks a kernel it did not cut out of a region with no noalias
    write_attrs = {k: v for k, v in _kernel_attrs().items() if k != "tirx.noalias"}

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            Before.write(pointer(c))
            T.call_ffi_kernel("read", A.data, pointer(c), 8, launch_params=["threadIdx.x"])

        @T.function(private=True)
        def write(c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr({"target": CUDA})
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 1) as i:
                c[i] = T.float32(1)

        @T.function
        def read(A_ptr: T.Ptr(T.float32), c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

    @I.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            T.call_ffi_kernel("write", pointer(c), 1, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("read", A.data, pointer(c), 8, launch_params=["threadIdx.x"])

        @T.function
        def write(c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(write_attrs)
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 1) as i:
                c[i] = T.float32(1)

        @T.function
        def read(A_ptr: T.Ptr(T.float32), c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.parametrize(
    "pointer", [lambda c: c.data, lambda c: T.address_of(c[0])], ids=["data", "address_of"]
)
def test_cell_handed_to_a_single_thread_module_function_kernel_stays_on_device(pointer):
    """A module function of the device target is a kernel without a thread launch too: the
    cell whose Ptr the host hands it stays a device Ptr"""
    # a kernel with no thread launch is launched over no launch parameter
    write_attrs = {k: v for k, v in _kernel_attrs().items() if k != "tirx.noalias"}
    write_attrs["tirx.kernel_launch_params"] = []

    @I.ir_module
    class Before:
        @T.function
        def main():
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            Before.write(pointer(c))

        @T.function(private=True)
        def write(c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr({"target": CUDA})
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            c[0] = T.float32(1)

    @I.ir_module
    class Expected:
        @T.function
        def main():
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            T.call_ffi_kernel("write", pointer(c))

        @T.function
        def write(c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(write_attrs)
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            c[0] = T.float32(1)

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_ONLY)
@pytest.mark.parametrize(
    "launch",
    [
        lambda *args: T.call_ffi_kernel("kern", *args, 4, launch_params=["threadIdx.x"]),
        lambda *args: T.call_packed("kern", *args),
    ],
    ids=["call_ffi_kernel", "call_packed"],
)
def test_host_array_whose_element_a_launch_passes_is_cpu_memory(launch):
    """The host evaluates a launch's arguments: an array whose element it passes is CPU memory"""

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((4,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            v = T.alloc_tensor(ty_args=[T.Tensor((4,), T.float32, scope="local")])
            v[1] = T.float32(2.5)
            Before.kern(A.data, v[1])  # a module function
            launch(A.data, v[1])  # by its symbol

        @T.function
        def kern(A_ptr: T.Ptr(T.float32), x: T.float32):
            T.func_attr({"target": CUDA})
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((4,), T.float32)])
            with T.launch_thread("threadIdx.x", 4) as i:
                A[i] = x

    @T.function
    def main(A: T.Tensor((4,), "float32")):
        T.func_attr({"target": CUDA_ON_LLVM})
        v = T.alloc_tensor(
            ty_args=[T.Tensor((4,), T.float32, scope="local")], annotations={"device_type": 1}
        )
        v[1] = T.float32(2.5)
        T.call_ffi_kernel("kern", A.data, v[1], 4, launch_params=["threadIdx.x"])
        launch(A.data, v[1])

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before)["main"], main)


def test_cell_kernels_carry_across_host_loop_iterations_stays_on_device():
    """A cell a kernel loads in one iteration after the next kernel stored it stays a Ptr"""

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32"), n: T.int32):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            for j in range(n):
                with T.launch_thread("threadIdx.x", 8) as i:
                    A[i] = A[i] + c[0]
                with T.launch_thread("threadIdx.x", 8) as i:
                    c[0] = A[i]

    @I.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32"), n: T.int32):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            for j in range(n):
                T.call_ffi_kernel("main_kernel", A.data, c.data, 8, launch_params=["threadIdx.x"])
                T.call_ffi_kernel("main_kernel_1", A.data, c.data, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32), c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_kernel_attrs())
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + c[0]

        @T.function
        def main_kernel_1(A_ptr: T.Ptr(T.float32), c_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            c = T.decl_tensor(c_ptr, ty_args=[T.Tensor((1,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                c[0] = A[i]

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.parametrize(
    "pointer", [lambda c: c.data, lambda c: T.address_of(c[0])], ids=["data", "address_of"]
)
def test_decl_tensor_the_host_declares_is_no_host_access(pointer):
    """Kernels sharing an alloc_tensor through a host decl_tensor view get the view's Ptr"""

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((8,), T.float32, scope="local")])
            v = T.decl_tensor(pointer(c), ty_args=[T.Tensor((8,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                v[i] = A[i]
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = v[i]

    @I.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((8,), T.float32, scope="local")])
            v = T.decl_tensor(pointer(c), ty_args=[T.Tensor((8,), T.float32, scope="local")])
            T.call_ffi_kernel("main_kernel", A.data, v.data, 8, launch_params=["threadIdx.x"])
            T.call_ffi_kernel("main_kernel_1", A.data, v.data, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32), v_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            v = T.decl_tensor(v_ptr, ty_args=[T.Tensor((8,), T.float32, scope="local")])
            with T.launch_thread("threadIdx.x", 8) as i:
                v[i] = A[i]

        @T.function
        def main_kernel_1(A_ptr: T.Ptr(T.float32), v_ptr: T.Ptr(T.float32, "local")):
            T.func_attr(_kernel_attrs())
            v = T.decl_tensor(v_ptr, ty_args=[T.Tensor((8,), T.float32, scope="local")])
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = v[i]

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_CELL)
@pytest.mark.parametrize("call", [T.call_packed, T.call_extern])
def test_cell_handed_to_host_call_is_cpu_memory(call):
    """A cell whose Ptr the host passes to call_packed or call_extern is marked device_type 1"""

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
            call("fill", c.data, ty=T.int32)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

    @I.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            c = T.alloc_tensor(
                ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
            )
            call("fill", c.data, ty=T.int32)
            T.call_ffi_kernel("main_kernel", A.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.parametrize(
    "pointer", [lambda c: c.data, lambda c: T.address_of(c[0])], ids=["data", "address_of"]
)
def test_cell_call_packed_receives_as_a_tensor_stays_on_device(pointer):
    """A cell call_packed receives as a tensor, itself or a view, is device memory: unmarked"""

    @I.ir_module
    class Before:
        @T.function
        def main():
            T.func_attr({"target": CUDA_ON_LLVM})
            y = T.alloc_tensor(ty_args=[T.Tensor((4,), T.float32, scope="local")])
            v = T.decl_tensor(pointer(y), ty_args=[T.Tensor((4,), T.float32, scope="local")])
            T.call_packed("fill", y)
            T.call_packed("fill", v)

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Before)


@pytest.mark.parametrize("kind", ["cuda", "rocm", "vulkan", "metal", "opencl", "webgpu"])
@pytest.mark.parametrize("extent", [4, None], ids=["constant", "symbolic"])
@pytest.mark.parametrize(
    "scope",
    [
        pytest.param(
            "local", marks=pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_ONLY)
        ),
        "global",
    ],
)
def test_only_local_alloc_tensor_of_host_code_is_cpu_memory(scope, extent, kind):
    """Of the alloc_tensors no kernel touches, the local ones get device_type 1, global none"""
    annotations = {"note": 1, "device_type": 1} if scope == "local" else {"note": 1}
    target = T.target({"kind": kind, "host": "llvm"})

    @I.ir_module
    class Before:
        @T.function
        def main(n: T.int32):
            T.func_attr({"target": target})
            y = T.alloc_tensor(
                ty_args=[T.Tensor((n if extent is None else extent,), T.float32, scope=scope)],
                annotations={"note": 1},
            )
            y[0] = T.float32(1.5)
            T.call_packed("fill", y[0])

    @I.ir_module
    class Expected:
        @T.function
        def main(n: T.int32):
            T.func_attr({"target": target})
            y = T.alloc_tensor(
                ty_args=[T.Tensor((n if extent is None else extent,), T.float32, scope=scope)],
                annotations=annotations,
            )
            y[0] = T.float32(1.5)
            T.call_packed("fill", y[0])

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@T.function
def _kernel_stores_into_cell(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": CUDA_ON_LLVM})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        c[0] = A[i]


@T.function
def _kernel_takes_address_of_cell(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": CUDA_ON_LLVM})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = T.call_extern("load", T.address_of(c[0]), ty=T.float32)
        c[0] = A[i]  # a later use: the first names the error


def _kernel_indexes_host_array(shape, index):
    @T.function
    def func(A: T.Tensor((8,), "float32")):
        T.func_attr({"target": CUDA_ON_LLVM})
        x = T.alloc_tensor(ty_args=[T.Tensor(shape, T.float32, scope="local")])
        x[(0,) * len(shape)] = T.float32(0.0)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = x[index(i)]  # an index the kernel computes, even always 0, is no constant 0

    return func


def _kernel_reads_host_array_at_zero(shape):
    @T.function
    def func(A: T.Tensor((8,), "float32")):
        T.func_attr({"target": CUDA_ON_LLVM})
        x = T.alloc_tensor(ty_args=[T.Tensor(shape, T.float32, scope="local")])
        x[(0,) * len(shape)] = T.float32(0.0)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = x[(0,) * len(shape)]  # an array, not a cell, though read at 0

    return func


@T.function
def _kernel_reads_view_at_address_of(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": CUDA_ON_LLVM})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    v = T.decl_tensor(T.address_of(c[0]), ty_args=[T.Tensor((1,), T.float32, scope="local")])
    v[0] = T.float32(0.0)  # the host stores into c through the view
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = v[0]


@T.function
def _kernel_reads_view_of_bound_ptr(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": CUDA_ON_LLVM})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    p: T.let[T.Ptr(T.float32, "local")] = c.data
    v = T.decl_tensor(p, ty_args=[T.Tensor((1,), T.float32, scope="local")])
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = v[0]


@T.function
def _kernel_reads_view_of_view(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": CUDA_ON_LLVM})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    u = T.decl_tensor(c.data, ty_args=[T.Tensor((1,), T.float32, scope="local")])
    v = T.decl_tensor(u.data, ty_args=[T.Tensor((1,), T.float32, scope="local")])
    u[0] = T.float32(0.0)  # the host stores into c through a view
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = v[0]


@T.function
def _kernel_reads_vector_cell(A: T.Tensor((8,), "float32x4")):
    T.func_attr({"target": CUDA_ON_LLVM})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32x4", scope="local")])
    c[0] = T.Broadcast(T.float32(0.0), 4)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = c[0]


def _kernel_bound_by_stores_into_cell(thread):
    @T.function
    def func(A: T.Tensor((8,), "float32")):
        T.func_attr({"target": CUDA_ON_LLVM})
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        c[0] = T.float32(0.0)
        with T.launch_thread(thread, 8) as i:
            c[0] = A[i]

    return func


def _kernels_read_then_store_cell(kernels):
    # two functions: an `if` on `kernels` inside one would stay in its body, both branches
    @T.function
    def one(A: T.Tensor((8,), "float32")):
        T.func_attr({"target": CUDA_ON_LLVM})
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        c[0] = T.float32(0.0)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = c[0]
            c[0] = A[i]

    @T.function
    def two(A: T.Tensor((8,), "float32")):
        T.func_attr({"target": CUDA_ON_LLVM})
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        c[0] = T.float32(0.0)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = c[0]
        with T.launch_thread("threadIdx.x", 8) as i:
            c[0] = A[i]

    return one if kernels == 1 else two


@T.function
def _kernels_read_then_address_cell(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": CUDA_ON_LLVM})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = c[0]
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = T.call_extern("load", T.address_of(c[0]), ty=T.float32)


@pytest.mark.xfail(strict=True, raises=pytest.fail.Exception, reason=HOST_CELL)
@pytest.mark.parametrize(
    "func, use",
    [
        (_kernel_stores_into_cell, "stores into `c`"),
        (_kernel_takes_address_of_cell, "takes the address of `c`"),
        (_kernel_indexes_host_array((8,), lambda i: (i,)), "loads an element of `x`"),
        (_kernel_indexes_host_array((1,), lambda i: (i // 8,)), "loads an element of `x`"),
        (_kernel_indexes_host_array((1, 1), lambda i: (0, i // 8)), "loads an element of `x`"),
        (_kernel_reads_host_array_at_zero((8,)), "loads an element of `x`"),
        (_kernel_reads_host_array_at_zero((1, 4)), "loads an element of `x`"),
        (_kernel_reads_host_array_at_zero((1, 1, 2)), "loads an element of `x`"),
        (_kernel_reads_view_at_address_of, "uses a view of `c`"),
        (_kernel_reads_view_of_bound_ptr, "uses a view of `c`"),
        (_kernel_reads_view_of_view, "uses a view of `c`"),
        (_kernel_reads_vector_cell, "loads an element of `c`.*bind each lane"),
        (_kernel_bound_by_stores_into_cell("blockIdx.x"), "stores into `c`"),
        (_kernel_bound_by_stores_into_cell("threadIdx.y"), "stores into `c`"),
        (_kernels_read_then_store_cell(1), "stores into `c`"),
        (_kernels_read_then_store_cell(2), "stores into `c`"),
        (_kernels_read_then_address_cell, "takes the address of `c`"),
    ],
    ids=[
        *["store", "address_of", "index", "index-cell", "index-2d-cell"],
        *["index-0", "index-0-2d", "index-0-3d"],
        *["view-at-address_of", "view-of-bound-ptr"],
        *["view-of-view", "vector"],
        *["store-blockIdx.x", "store-threadIdx.y", "read-then-store", "read-then-next-stores"],
        "read-then-next-addresses",
    ],
)
def test_kernel_that_needs_a_cells_address_is_a_value_error(func, use):
    """A kernel storing to, addressing, indexing, viewing or loading a vector cell fails"""
    with pytest.raises(ValueError, match=f"A kernel {use}.*T.let"):
        tr.SplitHostDevice()(tvm_tirx.IRModule({"main": func}))


NARROW = "narrow kernel scalar parameter"


@pytest.mark.xfail(strict=True, raises=ValueError, reason=NARROW)
@pytest.mark.parametrize(
    "narrow, wide, kind",
    [
        *[(narrow, wide, "cuda") for narrow, wide in WIDENED.items()],
        *[("int8", "int32", kind) for kind in ["rocm", "opencl", "vulkan", "metal", "webgpu"]],
    ],
)
def test_sub_32_bit_scalar_argument_widened_and_narrowed_in_kernel(narrow, wide, kind):
    """call_ffi_kernel casts a sub-32-bit scalar up; the kernel Binds it cast back down"""
    scalar = T.PrimType(narrow)
    host = CUDA_ON_LLVM if kind == "cuda" else T.target({"kind": kind, "host": "llvm"})
    kernel_attrs = _kernel_attrs(CUDA if kind == "cuda" else T.target({"kind": kind}))

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar, y: scalar):
            T.func_attr({"target": host})
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x) + T.Cast("float32", y)

    @I.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar, y: scalar):
            T.func_attr({"target": host})
            T.call_ffi_kernel(
                "main_kernel",
                B.data,
                T.Cast(wide, x),
                T.Cast(wide, y),
                8,
                launch_params=["threadIdx.x"],
            )

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), x: getattr(T, wide), y: getattr(T, wide)):
            T.func_attr(kernel_attrs)
            x_1: T.let[scalar] = T.Cast(narrow, x)
            y_1: T.let[scalar] = T.Cast(narrow, y)
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x_1) + T.Cast("float32", y_1)

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=NARROW)
@pytest.mark.parametrize("narrow", ["float16", "bfloat16"])
def test_16_bit_float_bound_on_host_reaches_kernel_as_float32(narrow):
    """A float16/bfloat16 Bind of the host code is a float32 parameter of the kernel"""
    scalar = getattr(T, narrow)

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": CUDA_ON_LLVM})
            c: T.let[scalar] = x * scalar(2)
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", c)

    @I.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": CUDA_ON_LLVM})
            c: T.let[scalar] = x * scalar(2)
            T.call_ffi_kernel(
                "main_kernel", B.data, T.Cast("float32", c), 8, launch_params=["threadIdx.x"]
            )

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), c: T.float32):
            T.func_attr(_kernel_attrs())
            c_1: T.let[scalar] = T.Cast(narrow, c)
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", c_1)

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=NARROW)
@pytest.mark.parametrize(
    "narrow, wide, caller",
    [
        *[(narrow, wide, "cuda") for narrow, wide in WIDENED.items()],
        ("uint16", "uint32", "llvm"),
    ],
)
def test_kernel_declared_in_module_gets_widened_scalar(narrow, wide, caller):
    """A cuda kernel the module declares itself is widened like one SplitHostDevice cuts out"""
    scalar = T.PrimType(narrow)
    host = CUDA_ON_LLVM if caller == "cuda" else T.target("llvm")

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": host})
            Before.kernel(B.data, x)

        @T.function(private=True)
        def kernel(b: T.Ptr(T.float32), x: scalar):
            T.func_attr({"target": CUDA})
            B = T.decl_tensor(b, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x)

    @I.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": host})
            T.call_ffi_kernel("kernel", B.data, T.Cast(wide, x), 8, launch_params=["threadIdx.x"])

        @T.function
        def kernel(b: T.Ptr(T.float32), x: getattr(T, wide)):
            T.func_attr(
                {
                    "calling_conv": 2,
                    "target": CUDA,
                    "tirx.is_global_func": True,
                    "tirx.kernel_launch_params": ["threadIdx.x"],
                }
            )
            x_1: T.let[scalar] = T.Cast(narrow, x)
            B = T.decl_tensor(b, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x_1)

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=NARROW)
@pytest.mark.parametrize(
    "kind, host",
    [
        ("cuda", CUDA_ON_LLVM),
        ("opencl", T.target({"kind": "opencl", "host": "llvm"})),
        ("webgpu", T.target({"kind": "webgpu", "host": "llvm"})),
        ("opencl", T.target("llvm")),
    ],
    ids=["cuda", "opencl", "webgpu", "opencl-from-llvm"],
)
def test_kernel_launched_twice_under_its_own_global_symbol_widened_at_each_launch(kind, host):
    """Both launches of a module kernel whose global_symbol is not its name pass int8 as int32"""
    device = CUDA if kind == "cuda" else T.target({"kind": kind})

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "int8"), x: T.int8):
            T.func_attr({"target": host})
            Before.kern(B.data, x)
            Before.kern(B.data, x + T.int8(1))

        @T.function
        def kern(b: T.Ptr(T.int8), x: T.int8):
            T.func_attr({"target": device, "global_symbol": "my_kern"})
            B = T.decl_tensor(b, ty_args=[T.Tensor((8,), T.int8)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = B[i] + x

    After = tr.SplitHostDevice()(Before)

    @T.function
    def main(B: T.Tensor((8,), "int8"), x: T.int8):
        T.func_attr({"target": host})
        T.call_ffi_kernel("my_kern", B.data, T.Cast("int32", x), 8, launch_params=["threadIdx.x"])
        T.call_ffi_kernel(
            "my_kern", B.data, T.Cast("int32", x + T.int8(1)), 8, launch_params=["threadIdx.x"]
        )

    tvm_tirx.ir.assert_structural_equal(After["main"], main)


@pytest.mark.parametrize("kind", ["cuda", "opencl"])
def test_narrow_vector_scalar_argument_keeps_its_dtype(kind):
    """An int8x4 kernel scalar is no 32-bit scalar: call_ffi_kernel hands it over uncast"""
    host = CUDA_ON_LLVM if kind == "cuda" else T.target({"kind": kind, "host": "llvm"})

    @T.function
    def main(B: T.Tensor((8,), "int8"), x: T.int8x4):
        T.func_attr({"target": host})
        with T.launch_thread("threadIdx.x", 2) as i:
            B[T.Ramp(i * 4, 1, 4)] = x

    After = tr.SplitHostDevice()(tvm_tirx.IRModule({"main": main}))

    @T.function
    def main(B: T.Tensor((8,), "int8"), x: T.int8x4):
        T.func_attr({"target": host})
        T.call_ffi_kernel("main_kernel", B.data, x, 2, launch_params=["threadIdx.x"])

    tvm_tirx.ir.assert_structural_equal(After["main"], main)


@pytest.mark.parametrize(
    "dtype", ["float32", "float64", "int32", "uint32", "int64", "float8_e4m3fn", "float4_e2m1fn"]
)
def test_scalar_arguments_not_widened_keep_their_dtype(dtype):
    """call_ffi_kernel hands a 32/64-bit or float8/float4 scalar over as it is, uncast"""
    scalar = getattr(T, dtype)

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": CUDA_ON_LLVM})
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x)

    @I.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: scalar):
            T.func_attr({"target": CUDA_ON_LLVM})
            T.call_ffi_kernel("main_kernel", B.data, x, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), x: scalar):
            T.func_attr(_kernel_attrs())
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x)

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.parametrize("dtype", [*WIDENED, "uint64"])
def test_llvm_device_scope_kernel_keeps_scalar_dtype(dtype):
    """A device_scope on llvm is a private function called directly: its scalars stay as is"""
    scalar = T.PrimType(dtype)

    @I.ir_module
    class Before:
        @T.function
        def main(x: scalar):
            T.func_attr({"target": CUDA_ON_LLVM})
            with T.device_scope(attrs={"target": T.target("llvm")}):
                T.evaluate(x)

    @I.ir_module
    class Expected:
        @T.function
        def main(x: scalar):
            T.func_attr({"target": CUDA_ON_LLVM})
            kernel_error_code: T.let[T.int32] = T.Call(Expected.main_kernel, [x], ty=T.int32)
            assert kernel_error_code == 0, ("RuntimeError", ["Error executing compute kernel"])

        @T.function(private=True)
        def main_kernel(x: scalar) -> T.int32:
            T.func_attr(
                {"target": T.target("llvm"), "tirx.is_global_func": True, "tirx.noalias": True}
            )
            T.evaluate(x)
            return 0

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@pytest.mark.parametrize("kind", ["ext_dev", "hexagon"])
def test_kernel_without_device_runtime_keeps_uint64_and_int8_scalars(kind):
    """No device runtime packs ext_dev or hexagon kernel arguments: uint64 and int8 stay"""

    @I.ir_module
    class Before:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: T.uint64, y: T.int8):
            T.func_attr({"target": T.target({"kind": kind, "host": "llvm"})})
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x) + T.Cast("float32", y)

    @I.ir_module
    class Expected:
        @T.function
        def main(B: T.Tensor((8,), "float32"), x: T.uint64, y: T.int8):
            T.func_attr({"target": T.target({"kind": kind, "host": "llvm"})})
            kernel_error_code: T.let[T.int32] = T.call_ffi_kernel(
                "main_kernel", B.data, x, y, 8, launch_params=["threadIdx.x"]
            )
            assert kernel_error_code == 0, ("RuntimeError", ["Error executing compute kernel"])

        @T.function
        def main_kernel(B_ptr: T.Ptr(T.float32), x: T.uint64, y: T.int8):
            T.func_attr(_kernel_attrs(T.target({"kind": kind})))
            B = T.decl_tensor(B_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                B[i] = T.Cast("float32", x) + T.Cast("float32", y)

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


@T.function
def _one_launch_region(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": CUDA_ON_LLVM})
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = A[i] + T.float32(1)


@T.function
def _two_launch_regions(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": CUDA_ON_LLVM})
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = A[i] + T.float32(1)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = A[i] * T.float32(2)


@T.function
def _device_scope_region(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": CUDA_ON_LLVM})
    with T.device_scope():
        for i in range(8):
            A[i] = A[i] + T.float32(1)


@T.function(private=True)
def _launch_free(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": T.target("llvm")})
    A[0] = T.float32(0)


@pytest.mark.xfail(
    strict=True,
    raises=(ValueError, RuntimeError),
    reason="SplitHostDevice changes its input module in place",
)
@pytest.mark.parametrize("immutable_module", [False, True], ids=["plain", "checked"])
@pytest.mark.parametrize(
    "func",
    [_one_launch_region, _two_launch_regions, _device_scope_region],
    ids=["one", "two", "device-scope"],
)
@pytest.mark.parametrize(
    "functions",
    [["main"], ["main", "other"], ["launch_free", "main"]],
    ids=["1", "2", "launch-free-first"],
)
def test_split_host_device_result_is_a_new_ir_module(func, functions, immutable_module):
    """SplitHostDevice writes its kernels into a new IRModule; the one it was given stays"""
    given = {"main": func, "other": func, "launch_free": _launch_free}
    Before = tvm_tirx.IRModule({name: given[name] for name in functions})
    Expected = Before.clone()
    with tvm_tirx.ir.transform.PassContext(config={"testing.immutable_module": immutable_module}):
        tr.SplitHostDevice()(Before)
    tvm_tirx.ir.assert_structural_equal(Before, Expected)


@pytest.mark.parametrize(
    "launch_free",
    [_launch_free, _launch_free.with_attr("global_symbol", "f")],
    ids=["private", "public"],
)
def test_split_host_device_result_keeps_the_ir_module_attrs(launch_free):
    """The IRModule SplitHostDevice returns keeps the attrs, global infos and launch-free
    functions of the IRModule it was given"""

    @I.ir_module
    class Launch:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

    @I.ir_module
    class Split:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": CUDA_ON_LLVM})
            T.call_ffi_kernel("main_kernel", A.data, 8, launch_params=["threadIdx.x"])

        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32)):
            T.func_attr(_kernel_attrs())
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = A[i] + T.float32(1)

    # the only global info apache/tvm-tirx registers is the base class
    attrs, infos = {"note": "kept"}, {"info": [tvm_tirx.ir.GlobalInfo()]}
    Before = tvm_tirx.IRModule({"main": Launch["main"], "f": launch_free}, attrs, infos)
    Expected = tvm_tirx.IRModule(
        {"main": Split["main"], "main_kernel": Split["main_kernel"], "f": launch_free},
        attrs,
        infos,
    )
    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


def test_split_host_device_result_of_launch_free_module_equals_input():
    """An IRModule with no launch_thread or device_scope region comes out as it went in"""

    @I.ir_module
    class Before:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target("llvm")})
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    @I.ir_module
    class Expected:
        @T.function
        def main(A: T.Tensor((8,), "float32")):
            T.func_attr({"target": T.target("llvm")})
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    tvm_tirx.ir.assert_structural_equal(tr.SplitHostDevice()(Before), Expected)


if __name__ == "__main__":
    tvm_tirx.testing.main()
