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

ALIAS_BUG = pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,
    reason="VerifyMemory never fires inside tvm_tirx.tirx.compile: decl_tensor aliases, webgpu",
)
GPU_TARGETS = ["cuda", "rocm", "vulkan", "metal", "opencl", "webgpu"]
CHECKED_GPU_TARGETS = ["cuda", "rocm", "vulkan", "metal", "opencl"]


def _cuda():
    """A cuda target that needs no GPU to compile for"""
    return tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})


def _target(kind, host=None):
    """A target of ``kind`` (cuda with an explicit arch), with ``host`` when given"""
    config = {"kind": kind}
    if kind == "cuda":
        config["arch"] = "sm_80"
    if host is not None:
        config["host"] = host
    return T.target(config)


@pytest.mark.parametrize("target", [*CHECKED_GPU_TARGETS, pytest.param("webgpu", marks=ALIAS_BUG)])
def test_host_access_to_parameter(target):
    """Host code of a GPU function may not access a parameter tensor"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(target)})
        B[0] = A[0]

    with pytest.raises(RuntimeError, match="Variable `B` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@pytest.mark.parametrize("target", [*CHECKED_GPU_TARGETS, pytest.param("webgpu", marks=ALIAS_BUG)])
def test_host_load_from_parameter(target):
    """Host code of a GPU function may not load from a parameter tensor"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(target)})
        T.evaluate(A[3])

    with pytest.raises(RuntimeError, match="Variable `A` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@pytest.mark.parametrize("target", ["llvm", "c"])
def test_cpu_function_not_checked(target):
    """Host code of a CPU function may access its parameter tensors, through aliases too"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(target)})
        B_1 = T.decl_tensor(B.data, ty_args=[T.Tensor((16,), T.float32)])
        B_1[0] = A[0]

    assert tvm_tirx.tirx.analysis.verify_memory(func)


@ALIAS_BUG
def test_host_access_through_decl_tensor_alias():
    """Host code may not access a parameter through a decl_tensor alias of its data"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"})})
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        B_1 = T.decl_tensor(B.data, ty_args=[T.Tensor((16,), T.float32)])
        B_1[0] = A_1[0]

    with pytest.raises(RuntimeError, match="Variable `B_1` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_through_decl_tensor_aliases(target):
    """Host code may not load from a parameter through a chain of decl_tensor aliases"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(target)})
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        tiles = T.decl_tensor(A_1.data, ty_args=[T.Tensor((4, 4), T.float32)])
        T.evaluate(tiles[1, 2])

    with pytest.raises(RuntimeError, match="Variable `tiles` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize("position", [0, 1, 2])
def test_host_access_through_pointer_parameter(position):
    """Every pointer parameter counts, the first, a middle and the last alike"""

    @T.function
    def func(a: T.Ptr(T.float32), b: T.Ptr(T.float32), c: T.Ptr(T.float32)):
        T.func_attr({"target": _target("cuda")})
        X = T.decl_tensor([a, b, c][position], ty_args=[T.Tensor((16,), T.float32)])
        X[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `X` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize(
    "pointer",
    [
        lambda A: T.reinterpret(A.data, ty=T.Ptr(T.float32)),
        lambda A: T.handle_add_byte_offset(A.data, 48),
        lambda A: T.ptr_byte_offset(A.data, 48, ty=T.Ptr(T.float32)),
        lambda A: T.address_of(A[12]),
    ],
    ids=["reinterpret", "handle_add_byte_offset", "ptr_byte_offset", "address_of"],
)
def test_host_access_through_pointer_arithmetic(pointer):
    """Host code may not access a parameter through a pointer computed from its data"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target("cuda")})
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        view = T.decl_tensor(pointer(A_1), ty_args=[T.Tensor((4,), T.float32)])
        view[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `view` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_through_bound_address_of(target):
    """Host code may not access a parameter through a view at a bound address_of pointer"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(target)})
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        tail_ptr: T.let[T.Ptr(T.float32)] = T.address_of(A_1[12])
        tail = T.decl_tensor(tail_ptr, ty_args=[T.Tensor((4,), T.float32)])
        tail[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `tail` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_in_address_of_index(target):
    """Host code may not read a parameter in the index of an address_of"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((1,), "int32")):
        T.func_attr({"target": _target(target)})
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        B_1 = T.decl_tensor(B.data, ty_args=[T.Tensor((1,), T.int32)])
        row = T.decl_tensor(T.address_of(A_1[B_1[0]]), ty_args=[T.Tensor((4,), T.float32)])
        with T.launch_thread("threadIdx.x", 4) as tx:
            A_1[tx] = row[tx]

    with pytest.raises(RuntimeError, match="Variable `B_1` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_address_of_parameter_is_no_access(target):
    """Host code may take a parameter's address for a view that only a kernel reads"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((4,), "float32")):
        T.func_attr({"target": _target(target)})
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        B_1 = T.decl_tensor(B.data, ty_args=[T.Tensor((4,), T.float32)])
        tail = T.decl_tensor(T.address_of(A_1[12]), ty_args=[T.Tensor((4,), T.float32)])
        with T.launch_thread("threadIdx.x", 4) as tx:
            B_1[tx] = tail[tx]

    assert tvm_tirx.tirx.analysis.verify_memory(func)


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_to_allocation(target):
    """Host code may access a host allocation and its aliases; kernels may access parameters"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(target)})
        acc = T.alloc_tensor(ty_args=[T.Tensor((2,), T.float32, scope="local")])
        acc_view = T.decl_tensor(acc.data, ty_args=[T.Tensor((2,), T.float32, scope="local")])
        acc[0] = T.float32(0.5)
        acc_view[1] = acc_view[0] * T.float32(2.0)
        with T.launch_thread("threadIdx.x", 16) as i:
            A[i] = A[i] * T.float32(2.0)

    assert tvm_tirx.tirx.analysis.verify_memory(func)


@pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,
    reason="VerifyMemory skips the global tensors that the host code allocates",
)
@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_to_global_allocation(target):
    """Host code may not access a global tensor it allocates: that tensor is device memory"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), x: T.float32):
        T.func_attr({"target": _target(target)})
        scale = T.alloc_tensor(ty_args=[T.Tensor((4,), T.float32, scope="global")])
        scale[0] = x
        with T.launch_thread("threadIdx.x", 16) as i:
            A[i] = A[i] * scale[0]

    with pytest.raises(RuntimeError, match="Variable `scale` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_global_allocation_of_kernels_only(target):
    """A global tensor that the host code allocates and only kernels access is no host access"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(target)})
        tmp = T.alloc_tensor(ty_args=[T.Tensor((16,), T.float32, scope="global")])
        with T.launch_thread("threadIdx.x", 16) as i:
            tmp[i] = A[i] * T.float32(2.0)
        with T.launch_thread("threadIdx.x", 16) as i:
            A[i] = tmp[i]

    assert tvm_tirx.tirx.analysis.verify_memory(func)


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_device_helper_not_checked(target):
    """A private function whose target has no host is device code: it is not checked"""

    @T.ir_module
    class Module:
        @T.function(private=True)
        def load(a: T.Ptr(T.float32), i: T.int32) -> T.float32:
            T.func_attr({"target": _target(target)})
            A = T.decl_tensor(a, ty_args=[T.Tensor((8,), T.float32)])
            return A[i] * T.float32(2.0)

        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
            T.func_attr({"target": _target(target, host="llvm")})
            A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((8,), T.float32)])
            B_1 = T.decl_tensor(B.data, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as tx:
                B_1[tx] = Module.load(A_1.data, tx)

    assert tvm_tirx.tirx.transform.VerifyMemory()(Module).same_as(Module)


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_device_scope_not_checked(target):
    """A device_scope region is kernel code, like a launch_thread region: it is not checked"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(target, host="llvm")})
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        with T.device_scope():
            A_1[0] = T.float32(1.0)

    assert tvm_tirx.tirx.analysis.verify_memory(func)


@pytest.mark.parametrize("target", [*CHECKED_GPU_TARGETS, pytest.param("webgpu", marks=ALIAS_BUG)])
def test_private_host_function_checked(target):
    """A private function whose target has a host is host code: it is checked"""

    @T.function(private=True)
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(target, host="llvm")})
        B[0] = A[0]

    with pytest.raises(RuntimeError, match="Variable `B` is directly accessed by host memory"):
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_kernel_function_not_checked(target):
    """A kernel (calling_conv 2) is device code, single-threaded parts included: not checked"""

    @T.function
    def main_kernel(A_ptr: T.Ptr(T.float32)):
        T.func_attr(
            {
                "calling_conv": 2,
                "target": _target(target),
                "tirx.is_global_func": True,
                "tirx.noalias": True,
            }
        )
        A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((16,), T.float32)])
        A[0] = A[0] * T.float32(2.0)

    assert tvm_tirx.tirx.analysis.verify_memory(main_kernel)


@ALIAS_BUG
def test_compile_rejects_host_store_before_launch():
    """tvm_tirx.tirx.compile for cuda rejects a host store into a parameter before a launch"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        C[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i]

    with pytest.raises(RuntimeError, match="is directly accessed by host memory"):
        tvm_tirx.tirx.compile(tvm_tirx.ir.IRModule({"main": main}), target=_cuda())


@ALIAS_BUG
def test_compile_rejects_unbound_loop():
    """tvm_tirx.tirx.compile for cuda rejects a loop that no thread binds"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        for i in range(8):
            C[i] = B[i]

    with pytest.raises(RuntimeError, match="is directly accessed by host memory"):
        tvm_tirx.tirx.compile(tvm_tirx.ir.IRModule({"main": main}), target=_cuda())


def test_compile_accepts_bound_kernel():
    """tvm_tirx.tirx.compile for cuda accepts a kernel whose accesses are all bound to threads"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i]

    tvm_tirx.tirx.compile(tvm_tirx.ir.IRModule({"main": main}), target=_cuda())


@ALIAS_BUG
def test_compile_rejects_unbound_kernel_reading_view():
    """tvm_tirx.tirx.compile for cuda rejects a loop that no thread binds, here reading a view"""

    @T.function
    def main(A: T.Tensor((16,), "float32"), B: T.Tensor((4,), "float32")):
        row = T.decl_tensor(T.address_of(A[4]), ty_args=[T.Tensor((4,), T.float32)])
        for i in range(4):
            B[i] = row[i]

    with pytest.raises(RuntimeError, match="Variable `row` is directly accessed by host memory"):
        tvm_tirx.tirx.compile(tvm_tirx.ir.IRModule({"main": main}), target=_cuda())


if __name__ == "__main__":
    tvm_tirx.testing.main()
