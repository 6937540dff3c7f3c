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

VERIFY_MEMORY = pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,
    reason="VerifyMemory never fires inside tvm_tirx.tirx.compile: decl_tensor aliases, webgpu",
)
LAUNCH_SIZES = pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,
    reason="VerifyMemory takes a launch's extents and shared memory size for kernel code",
)
# the device kinds whose host code VerifyMemory checks; the released verifier misses webgpu
DEVICE_KINDS = ["cuda", "rocm", "vulkan", "metal", "opencl", "webgpu"]
DEVICE_KINDS_WEBGPU_MISSED = [*DEVICE_KINDS[:-1], pytest.param("webgpu", marks=VERIFY_MEMORY)]


def _target(kind, host=None):
    """A ``kind`` target (cuda with an explicit arch), with ``host`` if one is given"""
    config = {"kind": kind, **({"arch": "sm_80"} if kind == "cuda" else {})}
    return T.target({**config, **({"host": host} if host else {})})


def _cuda():
    """The target tvm_tirx.tirx.compile gets: cuda with an explicit arch, so no GPU is needed"""
    return tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})


@pytest.mark.parametrize("kind", DEVICE_KINDS_WEBGPU_MISSED)
def test_host_store_to_tensor_param_of_device_function_fails(kind):
    """Host code of a device-target function cannot store to its T.Tensor parameter"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(kind)})
        B[0] = A[0]

    # the store's error first, then the load's: every offending access is named
    with pytest.raises(RuntimeError, match="(?s)Variable `B` is directly.*Variable `A` is"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@pytest.mark.parametrize("kind", DEVICE_KINDS_WEBGPU_MISSED)
def test_host_load_from_tensor_param_of_device_function_fails(kind):
    """Host code of a device-target function cannot load from its T.Tensor parameter"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(kind)})
        T.evaluate(A[3])

    with pytest.raises(RuntimeError, match="Variable `A` is directly accessed by host memory"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@pytest.mark.parametrize("kind", ["llvm", "c"])
def test_cpu_target_function_touches_its_params_freely(kind):
    """A function whose target is the CPU is not verified, views of its parameters included"""

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
            T.func_attr({"target": _target(kind)})
            B_view = T.decl_tensor(B.data, ty_args=[T.Tensor((16,), T.float32)])
            B_view[0] = A[0]

    tvm_tirx.ir.assert_structural_equal(tr.VerifyMemory()(Module), Module)


@VERIFY_MEMORY
def test_host_store_through_decl_tensor_of_param_data_fails():
    """A decl_tensor over a parameter's .data is that parameter: the host cannot store to it"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target("cuda")})
        A_view = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        B_view = T.decl_tensor(B.data, ty_args=[T.Tensor((16,), T.float32)])
        B_view[0] = A_view[0]

    with pytest.raises(RuntimeError, match="Variable `B_view` is directly accessed by host"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@VERIFY_MEMORY
@pytest.mark.parametrize("kind", DEVICE_KINDS)
def test_host_load_through_decl_tensor_of_decl_tensor_fails(kind):
    """A 2-d decl_tensor over a view of a parameter still names parameter memory on the host"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(kind)})
        flat = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        tiles = T.decl_tensor(flat.data, ty_args=[T.Tensor((4, 4), T.float32)])
        T.evaluate(tiles[1, 2])

    with pytest.raises(RuntimeError, match="Variable `tiles` is directly accessed by host"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@VERIFY_MEMORY
@pytest.mark.parametrize("position", [0, 1, 2], ids=["first", "middle", "last"])
def test_host_store_through_decl_tensor_of_ptr_param_fails(position):
    """Each T.Ptr parameter of a device function is device memory, whatever its position"""

    @T.function
    def func(a: T.Ptr(T.float32), b: T.Ptr(T.float32), c: T.Ptr(T.float32)):
        T.func_attr({"target": _target("cuda")})
        X = T.decl_tensor([a, b, c][position], ty_args=[T.Tensor((16,), T.float32)])
        X[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `X` is directly accessed by host memory"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@VERIFY_MEMORY
@pytest.mark.parametrize(
    "offset_ptr",
    [
        lambda A: T.reinterpret(A.data, ty=T.Ptr(T.float32)),
        lambda A: T.handle_add_byte_offset(A.data, 48),
        lambda A: T.ptr_byte_offset(A.data, 48, ty=T.Ptr(T.float32)),
        lambda A: T.address_of(A[12]),
    ],
    ids=["reinterpret", "handle_add_byte_offset", "ptr_byte_offset", "address_of"],
)
def test_host_store_through_decl_tensor_at_derived_ptr_fails(offset_ptr):
    """A decl_tensor at a Ptr computed from parameter data is parameter memory on the host"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target("cuda")})
        flat = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        tail = T.decl_tensor(offset_ptr(flat), ty_args=[T.Tensor((4,), T.float32)])
        tail[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `tail` is directly accessed by host memory"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@VERIFY_MEMORY
@pytest.mark.parametrize("kind", DEVICE_KINDS)
def test_host_store_through_bound_address_of_ptr_fails(kind):
    """A Bind of a Ptr to a parameter element does not hide the parameter behind a view"""

    @T.function
    def func(A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(kind)})
        flat = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        tail_ptr: T.let[T.Ptr(T.float32)] = T.address_of(flat[12])
        tail = T.decl_tensor(tail_ptr, ty_args=[T.Tensor((4,), T.float32)])
        tail[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `tail` is directly accessed by host memory"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@VERIFY_MEMORY
@pytest.mark.parametrize("kind", DEVICE_KINDS)
def test_host_load_inside_address_of_index_fails(kind):
    """The index of an address_of runs on the host: it cannot load from a parameter"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((1,), "int32")):
        T.func_attr({"target": _target(kind)})
        flat = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        row_of = T.decl_tensor(B.data, ty_args=[T.Tensor((1,), T.int32)])
        row = T.decl_tensor(T.address_of(flat[row_of[0]]), ty_args=[T.Tensor((4,), T.float32)])
        with T.launch_thread("threadIdx.x", 4) as tx:
            flat[tx] = row[tx]

    with pytest.raises(RuntimeError, match="Variable `row_of` is directly accessed by host"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@pytest.mark.parametrize("kind", DEVICE_KINDS)
def test_host_address_of_param_for_launch_region_view_passes(kind):
    """Taking address_of a parameter element on the host, for a view a kernel reads, is legal"""

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((16,), "float32"), B: T.Tensor((4,), "float32")):
            T.func_attr({"target": _target(kind)})
            flat = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
            out = T.decl_tensor(B.data, ty_args=[T.Tensor((4,), T.float32)])
            tail = T.decl_tensor(T.address_of(flat[12]), ty_args=[T.Tensor((4,), T.float32)])
            with T.launch_thread("threadIdx.x", 4) as tx:
                out[tx] = tail[tx]

    tvm_tirx.ir.assert_structural_equal(tr.VerifyMemory()(Module), Module)


def _launch(place, read):
    """A kernel whose launch size at ``place`` is read from ``read(L, cell)``, 4 elsewhere"""

    def size(at, L, cell):
        return read(L, cell)[0] if at == place else 4

    @T.function
    def main(L: T.Tensor((1,), "int32"), A: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target("cuda")})
        cell = T.alloc_tensor(ty_args=[T.Tensor((1,), T.int32, scope="local")])
        cell[0] = 4
        with T.launch_thread("blockIdx.x", size("blockIdx.x", L, cell)) as bx:
            with T.launch_thread("threadIdx.x", size("threadIdx.x", L, cell)) as tx:
                shared = T.alloc_tensor(
                    ty_args=[T.Tensor((size("shared", L, cell),), T.float32, scope="shared.dyn")]
                )
                shared[tx] = A[bx * 4 + tx]
                A[bx * 4 + tx] = shared[tx] * T.float32(2.0)

    return tvm_tirx.IRModule({"main": main})


# the released verifier reads the extent of the outermost launch as host code already
@pytest.mark.parametrize(
    "place",
    [
        "blockIdx.x",
        pytest.param("threadIdx.x", marks=LAUNCH_SIZES),
        pytest.param("shared", marks=LAUNCH_SIZES),
    ],
)
def test_host_load_in_launch_extent_or_shared_memory_size_fails(place):
    """The host computes each extent of a launch and its shared memory size: no param reads"""
    with pytest.raises(RuntimeError, match="Variable `L` is directly accessed by host memory"):
        tr.VerifyMemory()(_launch(place, lambda L, cell: L))


@pytest.mark.parametrize("place", ["blockIdx.x", "threadIdx.x", "shared"])
def test_host_cell_in_launch_extent_or_shared_memory_size_passes(place):
    """A launch's extents and dynamic shared memory size may read a host cell"""
    mod = _launch(place, lambda L, cell: cell)
    tvm_tirx.ir.assert_structural_equal(tr.VerifyMemory()(mod), mod)


@pytest.mark.parametrize("kind", DEVICE_KINDS)
@pytest.mark.parametrize(
    "scope, annotations",
    [("local", {}), ("global", {"device_type": 1}), ("global", {"disable_lower_builtin": 1})],
    ids=["local", "global-device_type-1", "global-disable_lower_builtin-1"],
)
def test_host_use_of_alloc_tensor_in_host_memory_passes(kind, scope, annotations):
    """Host code may use, directly or via a view, an alloc_tensor LowerTVMBuiltin puts on the CPU"""

    @I.ir_module
    class Module:
        @T.function
        def main(x: T.float32):
            T.func_attr({"target": _target(kind)})
            acc = T.alloc_tensor(
                ty_args=[T.Tensor((2,), T.float32, scope=scope)], annotations=annotations
            )
            acc_view = T.decl_tensor(acc.data, ty_args=[T.Tensor((2,), T.float32, scope=scope)])
            acc[0] = x
            acc_view[1] = acc_view[0] * T.float32(2.0)

    tvm_tirx.ir.assert_structural_equal(tr.VerifyMemory()(Module), Module)


@pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,
    reason="VerifyMemory skips the global tensors that the host code allocates",
)
@pytest.mark.parametrize("kind", DEVICE_KINDS)
@pytest.mark.parametrize(
    "annotations",
    [{}, {"pragma_note": 1}, {"device_type": 2}, {"disable_lower_builtin": 0}],
    ids=["unannotated", "other-annotation", "device_type-2", "disable_lower_builtin-0"],
)
def test_host_store_to_global_alloc_tensor_fails(kind, annotations):
    """A global alloc_tensor not marked for the host (device_type 1, disable_lower_builtin) is
    device memory: the host cannot store"""

    @T.function
    def func(A: T.Tensor((16,), "float32"), x: T.float32):
        T.func_attr({"target": _target(kind)})
        scale = T.alloc_tensor(
            ty_args=[T.Tensor((4,), T.float32, scope="global")], annotations=annotations
        )
        scale[0] = x
        with T.launch_thread("threadIdx.x", 16) as i:
            A[i] = A[i] * scale[0]

    with pytest.raises(RuntimeError, match="Variable `scale` is directly accessed by host"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@pytest.mark.parametrize("kind", DEVICE_KINDS)
def test_global_alloc_tensor_touched_only_in_launch_regions_passes(kind):
    """A global alloc_tensor the host allocates but only launch regions access is legal"""

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((16,), "float32")):
            T.func_attr({"target": _target(kind)})
            tmp = T.alloc_tensor(ty_args=[T.Tensor((16,), T.float32, scope="global")])
            with T.launch_thread("threadIdx.x", 16) as i:
                tmp[i] = A[i] * T.float32(2.0)
            with T.launch_thread("threadIdx.x", 16) as i:
                A[i] = tmp[i]

    tvm_tirx.ir.assert_structural_equal(tr.VerifyMemory()(Module), Module)


@pytest.mark.parametrize("kind", DEVICE_KINDS)
def test_private_helper_with_hostless_target_is_device_code(kind):
    """VerifyMemory skips a private helper whose target lacks a host: only kernels call it"""

    @I.ir_module
    class Module:
        @T.function(private=True)
        def load(a: T.Ptr(T.float32), i: T.int32) -> T.float32:
            T.func_attr({"target": _target(kind)})
            A = T.decl_tensor(a, ty_args=[T.Tensor((8,), T.float32)])
            return A[i] * T.float32(2.0)

        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
            T.func_attr({"target": _target(kind, host="llvm")})
            src = T.decl_tensor(A.data, ty_args=[T.Tensor((8,), T.float32)])
            dst = T.decl_tensor(B.data, ty_args=[T.Tensor((8,), T.float32)])
            with T.launch_thread("threadIdx.x", 8) as tx:
                dst[tx] = Module.load(src.data, tx)

    tvm_tirx.ir.assert_structural_equal(tr.VerifyMemory()(Module), Module)


@pytest.mark.parametrize("kind", DEVICE_KINDS)
def test_device_scope_region_counts_as_device_code(kind):
    """Accesses inside T.device_scope() are kernel code, as inside T.launch_thread"""

    @I.ir_module
    class Module:
        @T.function
        def main(A: T.Tensor((16,), "float32")):
            T.func_attr({"target": _target(kind, host="llvm")})
            flat = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
            with T.device_scope():
                flat[0] = T.float32(1.0)

    tvm_tirx.ir.assert_structural_equal(tr.VerifyMemory()(Module), Module)


@pytest.mark.parametrize("kind", ["cuda", "opencl"])
@pytest.mark.parametrize("position", ["first", "second"])
def test_host_load_in_device_scope_launch_value_fails(kind, position):
    """The host computes a T.device_scope's launch values, as a launch's extents: no param reads"""

    def values(L):
        return (L[0],) if position == "first" else (4, L[0])

    @T.function
    def main(A: T.Tensor((16,), "float32"), L: T.Tensor((1,), "int32")):
        T.func_attr({"target": _target(kind, host="llvm")})
        flat = T.decl_tensor(A.data, ty_args=[T.Tensor((16,), T.float32)])
        with T.device_scope(*values(L)):
            flat[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `L` is directly accessed by host memory"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": main}))


@pytest.mark.parametrize("kind", DEVICE_KINDS_WEBGPU_MISSED)
def test_private_function_with_host_in_target_is_verified(kind):
    """A private function whose target has a host is host code, verified like a public one"""

    @T.function(private=True)
    def func(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
        T.func_attr({"target": _target(kind, host="llvm")})
        B[0] = A[0]

    with pytest.raises(RuntimeError, match="Variable `B` is directly accessed by host memory"):
        tr.VerifyMemory()(tvm_tirx.IRModule({"main": func}))


@pytest.mark.parametrize("kind", DEVICE_KINDS)
def test_calling_conv_2_kernel_function_is_not_verified(kind):
    """A calling_conv 2 kernel is device code from its first statement: it is not verified"""

    @I.ir_module
    class Module:
        @T.function
        def main_kernel(A_ptr: T.Ptr(T.float32)):
            T.func_attr(
                {
                    "calling_conv": 2,
                    "target": _target(kind),
                    "tirx.is_global_func": True,
                    "tirx.noalias": True,
                }
            )
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((16,), T.float32)])
            A[0] = A[0] * T.float32(2.0)

    tvm_tirx.ir.assert_structural_equal(tr.VerifyMemory()(Module), Module)


@VERIFY_MEMORY
def test_tirx_compile_for_cuda_rejects_host_store_beside_launch_region():
    """tvm_tirx.tirx.compile for cuda fails on a host store to a parameter next to a launch"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        C[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i]

    with pytest.raises(RuntimeError, match="is directly accessed by host memory"):
        tvm_tirx.tirx.compile(main, target=_cuda())


@VERIFY_MEMORY
def test_tirx_compile_for_cuda_rejects_loop_without_launch_thread():
    """tvm_tirx.tirx.compile for cuda fails on a loop over parameters outside any launch"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        for i in range(8):
            C[i] = B[i]

    with pytest.raises(RuntimeError, match="is directly accessed by host memory"):
        tvm_tirx.tirx.compile(main, target=_cuda())


@VERIFY_MEMORY
def test_tirx_compile_for_cuda_rejects_view_read_without_launch_thread():
    """tvm_tirx.tirx.compile for cuda fails on a host loop reading an address_of view"""

    @T.function
    def main(A: T.Tensor((16,), "float32"), B: T.Tensor((4,), "float32")):
        row = T.decl_tensor(T.address_of(A[4]), ty_args=[T.Tensor((4,), T.float32)])
        for i in range(4):
            B[i] = row[i]

    with pytest.raises(RuntimeError, match="Variable `row` is directly accessed by host memory"):
        tvm_tirx.tirx.compile(main, target=_cuda())


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,  # MakePackedAPI's check "variables (L,) are used" fires instead
    reason="VerifyMemory takes a launch's extents and shared memory size for kernel code",
)
@pytest.mark.parametrize("place", ["threadIdx.x", "blockIdx.x", "shared"])
def test_tirx_compile_for_cuda_rejects_launch_size_read_from_param(place):
    """tvm_tirx.tirx.compile for cuda fails in VerifyMemory on a launch size the host reads"""

    def size(at, L):
        return L[0] if at == place else 4

    @T.function
    def main(L: T.Tensor((1,), "int32"), A: T.Tensor((16,), "float32")):
        with T.launch_thread("blockIdx.x", size("blockIdx.x", L)) as bx:
            with T.launch_thread("threadIdx.x", size("threadIdx.x", L)) as tx:
                shared = T.alloc_tensor(
                    ty_args=[T.Tensor((size("shared", L),), T.float32, scope="shared.dyn")]
                )
                shared[tx] = A[bx * 4 + tx]
                A[bx * 4 + tx] = shared[tx] * T.float32(2.0)

    with pytest.raises(RuntimeError, match="Variable `L` is directly accessed by host memory"):
        tvm_tirx.tirx.compile(main, target=_cuda())


def test_tirx_compile_for_cuda_accepts_launch_region_kernel():
    """tvm_tirx.tirx.compile for cuda builds a function whose accesses all sit in a launch"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i]

    executable = tvm_tirx.tirx.compile(main, target=_cuda())
    assert executable["main"] is not None


if __name__ == "__main__":
    tvm_tirx.testing.main()
