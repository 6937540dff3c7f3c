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
"""The VerifyMemory rules of the upstream file, over every GPU target (this repository only).

tests/python/tirx-analysis/test_tir_analysis_verify_memory.py tests each rule of patch 0003
once, on cuda; only the rule of which targets are checked sweeps targets there (cuda, webgpu,
llvm), since the fix adds webgpu and leaves rocm, vulkan, metal and opencl as they were. A fix
could still get a rule right on cuda and wrong on another device runtime (a target list of its
own, a device-type test in one branch), so each rule is run here as a pass on cuda, rocm,
vulkan, metal, opencl and webgpu, the direct access to a parameter included, and the launch
sizes the host computes (an outer and a nested extent, the dynamic shared memory size) read
from a parameter or from a host cell.
"""

import pytest

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T

GPU_TARGETS = ["cuda", "rocm", "vulkan", "metal", "opencl", "webgpu"]
ALIAS_BUG = pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,  # pytest.raises: DID NOT RAISE
    reason="VerifyMemory never fires inside tvm.compile: aliases, pointer arithmetic, webgpu",
)
GLOBAL_BUG = pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,  # pytest.raises: DID NOT RAISE
    reason="VerifyMemory skips the global buffers that the host code allocates",
)
GLOBAL_VALUE_BUG = pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="VerifyMemory skips the global buffers that the host code allocates",
)
LAUNCH_BUG = pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,  # pytest.raises: DID NOT RAISE
    reason="VerifyMemory takes a launch's extents and shared memory size for kernel code",
)


def _match_buffer_alias(target):
    @T.prim_func(s_tir=True)
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        A_1 = T.decl_buffer((16,), data=A.data)
        with T.sblock("host"):
            tile = T.match_buffer(A_1[4:8], (4,), offset_factor=1)
            tile[0] = T.float32(1.0)

    return tvm.IRModule({"main": func}), "tile"


def _global_allocation(target, annotations=None):
    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), x: T.float32):
        T.func_attr({"target": T.target(target)})
        scale = T.alloc_buffer((4,), "float32", annotations=annotations)
        scale[0] = x
        with T.launch_thread("threadIdx.x", 16) as tx:
            A[tx] = A[tx] * scale[0]

    return tvm.IRModule({"main": func}), "scale"


def _private_host_function(target):
    @T.prim_func(private=True)
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target, host="llvm")})
        B[0] = A[0]

    return tvm.IRModule({"main": func}), "B"


def _parameter(target):
    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        B[0] = A[0]

    return tvm.IRModule({"main": func}), "B"


def _decl_buffer_chain(target):
    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        A_1 = T.decl_buffer((16,), data=A.data)
        tiles = T.decl_buffer((4, 4), data=A_1.data)
        T.evaluate(tiles[1, 2])

    return tvm.IRModule({"main": func}), "tiles"


def _launch(target, place, read):
    """A kernel whose launch sizes read ``read`` (the parameter L or a host cell) at ``place``:
    the extent of the launch that opens it, a nested launch's extent, its dynamic shared memory
    size."""

    def size(at, L, cell):
        return read(L, cell)[0] if at == place else 4

    @T.prim_func
    def func(L: T.Buffer((1,), "int32"), A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        cell = T.alloc_buffer((1,), "int32", scope="local")
        cell[0] = 4
        with T.launch_thread("blockIdx.x", size("blockIdx.x", L, cell)) as bx:
            with T.launch_thread("threadIdx.x", size("threadIdx.x", L, cell)) as tx:
                staged = T.alloc_buffer((size("shared.dyn", L, cell),), scope="shared.dyn")
                staged[tx] = A[bx * 4 + tx]
                A[bx * 4 + tx] = staged[tx] * T.float32(2.0)

    return tvm.IRModule({"main": func})


def _launch_from_device(place):
    return lambda target: (_launch(target, place, lambda L, cell: L), "L")


def _launch_from_host(place):
    return lambda target: _launch(target, place, lambda L, cell: cell)


# case -> (its program, the bug that hides it: on every target, or on webgpu only)
REJECTED = {
    "parameter": (_parameter, None, ALIAS_BUG),
    "match_buffer": (_match_buffer_alias, ALIAS_BUG, None),
    "global_allocation": (_global_allocation, GLOBAL_BUG, None),
    # an annotation that does not place it on the host leaves it device memory
    "annotated_global_allocation": (
        lambda target: _global_allocation(target, {"pragma_note": 1}),
        GLOBAL_BUG,
        None,
    ),
    "private_host_function": (_private_host_function, None, ALIAS_BUG),
    "decl_buffer_chain": (_decl_buffer_chain, ALIAS_BUG, None),
    # the host computes a launch's sizes before the launch
    "launch_extent": (_launch_from_device("blockIdx.x"), LAUNCH_BUG, None),
    "nested_launch_extent": (_launch_from_device("threadIdx.x"), LAUNCH_BUG, None),
    "shared_memory_size": (_launch_from_device("shared.dyn"), LAUNCH_BUG, None),
}


def _rejected_params():
    for case, (_, everywhere, webgpu) in REJECTED.items():
        for target in GPU_TARGETS:
            mark = everywhere or (webgpu if target == "webgpu" else None)
            yield pytest.param(case, target, marks=mark or (), id=f"{case}-{target}")


@pytest.mark.parametrize("case, target", list(_rejected_params()))
def test_host_access_rejected_on_every_target(case, target):
    """Each host access the upstream tests reject on cuda is rejected on every GPU target."""
    mod, var = REJECTED[case][0](target)
    with pytest.raises(RuntimeError, match=f"Variable `{var}` is directly accessed by host"):
        tvm.tirx.transform.VerifyMemory()(mod)


def _packed_function(target):
    @T.prim_func
    def func(args: T.handle, num_args: T.int32) -> T.int32:
        T.func_attr({"target": T.target(target, host="llvm"), "calling_conv": 1})
        A_handle: T.let[T.handle] = T.tvm_struct_get(args, 0, 15, "handle")
        A_shape = T.decl_buffer((1,), "int64", data=T.tvm_struct_get(A_handle, 0, 2, "handle"))
        assert A_shape[0] == T.int64(16), "A has 16 elements"
        return 0

    return tvm.IRModule({"main": func})


def _device_helper(target):
    @I.ir_module
    class Module:
        @T.prim_func(private=True)
        def load(a: T.handle("float32"), i: T.int32) -> T.float32:
            T.func_attr({"target": T.target(target)})
            A = T.decl_buffer((8,), data=a)
            return A[i] * T.float32(2.0)

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target(target, host="llvm")})
            A_1 = T.decl_buffer((8,), data=A.data)
            B_1 = T.decl_buffer((8,), data=B.data)
            with T.launch_thread("threadIdx.x", 8) as tx:
                B_1[tx] = Module.load(A_1.data, tx)

    return Module


def _local_allocation(target):
    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        acc = T.alloc_buffer((2,), "float32", scope="local")
        acc_view = T.decl_buffer((2,), data=acc.data, scope="local")
        acc[0] = T.float32(0.5)
        acc_view[1] = acc_view[0] * T.float32(2.0)

    return tvm.IRModule({"main": func})


def _kernel_only_global_allocation(target):
    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        tmp = T.alloc_buffer((16,), "float32")
        with T.launch_thread("threadIdx.x", 16) as tx:
            tmp[tx] = A[tx] * T.float32(2.0)
        with T.launch_thread("threadIdx.x", 16) as tx:
            A[tx] = tmp[tx]

    return tvm.IRModule({"main": func})


def _static_shared_shape_from_parameter(target):
    # a static shared allocation's shape is the kernel's own business (the compiler sizes it,
    # here CompactBufferAllocation to the one element used): reading a parameter there is no
    # host access, unlike the dynamic shared memory size the host passes at the launch
    @T.prim_func
    def func(A: T.Buffer((64,), "float32"), L: T.Buffer((1,), "int32")):
        T.func_attr({"target": T.target(target)})
        with T.launch_thread("blockIdx.x", 8) as bx:
            S = T.alloc_buffer((L[0],), "float32", scope="shared")
            S[0] = T.float32(1)
            A[bx] = S[0]

    return tvm.IRModule({"main": func})


ACCEPTED = {
    "packed_function": _packed_function,
    "device_helper": _device_helper,
    "local_allocation": _local_allocation,
    # a global buffer the host allocates is device memory: kernels may use it
    "kernel_only_global_allocation": _kernel_only_global_allocation,
    # launch sizes the host computes from a host cell
    "launch_extent_from_host": _launch_from_host("blockIdx.x"),
    "nested_launch_extent_from_host": _launch_from_host("threadIdx.x"),
    "shared_memory_size_from_host": _launch_from_host("shared.dyn"),
    "static_shared_shape_from_parameter": _static_shared_shape_from_parameter,
}


@pytest.mark.parametrize("target", GPU_TARGETS)
@pytest.mark.parametrize("case", ACCEPTED)
def test_valid_program_accepted_on_every_target(case, target):
    """What the upstream tests accept on cuda is accepted on every GPU target."""
    mod = ACCEPTED[case](target)
    assert tvm.tirx.transform.VerifyMemory()(mod).same_as(mod)


@pytest.mark.parametrize("target", GPU_TARGETS)
@pytest.mark.parametrize(
    "annotations, valid",
    [
        pytest.param({"device_type": 2}, False, marks=GLOBAL_VALUE_BUG),
        pytest.param({"device_type": 4}, False, marks=GLOBAL_VALUE_BUG),
        pytest.param({"disable_lower_builtin": 0}, False, marks=GLOBAL_VALUE_BUG),
        pytest.param({"disable_lower_builtin": False}, False, marks=GLOBAL_VALUE_BUG),
        ({"device_type": 1}, True),
        ({"disable_lower_builtin": True}, True),
        ({"disable_lower_builtin": 1, "device_type": 2}, True),
    ],
    ids=["gpu", "opencl", "lowered-0", "lowered-False", "cpu", "not-lowered", "not-lowered-gpu"],
)
def test_host_allocation_annotation_values_decide(annotations, valid, target):
    """A host allocation stays on the host by an annotation's value, not by the key alone."""

    @T.prim_func
    def func(x: T.float32):
        T.func_attr({"target": T.target(target)})
        acc = T.alloc_buffer((2,), "float32", annotations=annotations)
        acc[0] = x

    assert tvm.tirx.analysis.verify_memory(func) == valid


if __name__ == "__main__":
    tvm.testing.main()
