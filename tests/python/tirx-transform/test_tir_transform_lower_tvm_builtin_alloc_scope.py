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
"""LowerTVMBuiltin: which allocations of a host function stay on the host stack.

A host function (``tirx.is_host_func``, or a CPU target) knows its device type from its
target's kind or from an enclosing ``device_type`` attribute (which overrides the target).
LowerTVMBuiltin keeps an allocation as a plain stack allocation, or turns it into
``TVMBackendAllocWorkspace(device_type, device_id, nbytes, type_code, bits)`` plus a free.

The rule these tests pin, by storage scope:

* ``global``: kept on the stack only on a CPU device with a constant size under
  ``runtime::kMaxStackAlloca`` (1024 bytes); otherwise a workspace on the function's device.
  This is how host code gets intermediate buffers for its kernels and must not change.
* ``local`` on a non-CPU device: a host-level scalar cell (what ``c: T.float32 = v`` in the
  host region of a TIRx function parses into). The host writes it and hands it to the kernel,
  so it must stay host memory: kept on the stack when its size is constant and under the same
  threshold. Today it becomes a workspace on the function's device: device memory on cuda
  that the host then stores into (the "host-level scalar" report: the compiled function
  segfaults).
* ``local`` on a CPU device: a TVMBackend workspace on the CPU. That is host memory, so it is
  correct and must not change.
"""

import pytest

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T

CUDA = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})
LLVM = tvm.target.Target("llvm")
KDLCPU, KDLCUDA = 1, 2

# How the host function learns its device type:
#   func_attr: the function attributes; device_type_attr: the enclosing
#   T.attr(..., "device_type", ...) (None: none, the target's kind decides); device: result.
PLACEMENTS = {
    # a cuda host function, device type from the target kind
    "cuda_target": ({"target": CUDA, "tirx.is_host_func": True}, None, KDLCUDA),
    # what MakePackedAPI produces for a cuda function: llvm host target, device_type attribute
    "cuda_attr_on_llvm": ({"target": LLVM}, KDLCUDA, KDLCUDA),
    # a CPU function
    "cpu_target": ({"target": LLVM}, None, KDLCPU),
    # the device_type attribute overrides the cuda target
    "cpu_attr_on_cuda": ({"target": CUDA, "tirx.is_host_func": True}, KDLCPU, KDLCPU),
}

# dtype -> (value the host stores, DLDataType code, bits): the workspace call carries them
DTYPES = {"float32": (1.5, 2, 32), "float16": (0.5, 2, 16), "int64": (-7, 0, 64)}

HOST_SCALAR_ON_DEVICE = (
    "host-level scalar cell (local scope) of a cuda host function is allocated on the device "
    "by LowerTVMBuiltin and written from the host (TIRx/CUDA host-level scalar report)"
)


def _lower(mod):
    return tvm.tirx.transform.LowerTVMBuiltin()(mod)


def _before(placement, scope, dtype, extent=1, annotations=None):
    """A host function that allocates `extent` elements of `scope` memory and stores into it."""
    func_attr, device_type_attr, _ = PLACEMENTS[placement]
    value = tvm.tirx.const(DTYPES[dtype][0], dtype)
    alloc = (extent, dtype, scope, annotations)
    if device_type_attr is None:
        return _before_device_from_target(func_attr, alloc, value)
    return _before_device_from_attr(func_attr, device_type_attr, alloc, value)


def _before_device_from_target(func_attr, alloc, value):
    extent, dtype, scope, annotations = alloc

    @I.ir_module
    class Before:
        @T.prim_func
        def main():
            T.func_attr(func_attr)
            T.attr("default", "device_id", 0)
            c = T.alloc_buffer((extent,), dtype, scope=scope, annotations=annotations)
            c[0] = value

    return Before


def _before_device_from_attr(func_attr, device_type_attr, alloc, value):
    extent, dtype, scope, annotations = alloc

    @I.ir_module
    class Before:
        @T.prim_func
        def main():
            T.func_attr(func_attr)
            T.attr("default", "device_id", 0)
            T.attr("default", "device_type", device_type_attr)
            c = T.alloc_buffer((extent,), dtype, scope=scope, annotations=annotations)
            c[0] = value

    return Before


def _expected_stack(placement, scope, dtype, extent=1, annotations=None):
    """The allocation is left as it is; the device attributes are consumed by the pass."""
    func_attr = PLACEMENTS[placement][0]
    value = tvm.tirx.const(DTYPES[dtype][0], dtype)

    @I.ir_module
    class Expected:
        @T.prim_func
        def main():
            T.func_attr(func_attr)
            c = T.alloc_buffer((extent,), dtype, scope=scope, annotations=annotations)
            c[0] = value

    return Expected


def _expected_workspace(placement, scope, dtype, extent=1):
    """The allocation becomes a workspace on the placement's device, freed at the end."""
    func_attr, _, device = PLACEMENTS[placement]
    value, code, bits = DTYPES[dtype]
    value = tvm.tirx.const(value, dtype)
    nbytes = extent * bits // 8

    @I.ir_module
    class Expected:
        @T.prim_func
        def main():
            T.func_attr(func_attr)
            # the pass types the call as a pointer to the buffer's element type and scope, and
            # its tvm_throw_last_error calls as int32: spell both out
            c = T.decl_buffer(
                (extent,),
                dtype,
                data=T.call_intrin(
                    T.handle(dtype, scope).ty,
                    "tirx.TVMBackendAllocWorkspace",
                    device,
                    0,
                    T.uint64(nbytes),
                    code,
                    bits,
                ),
                scope=scope,
            )
            if T.isnullptr(c.data):
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))
            c[0] = value
            if T.TVMBackendFreeWorkspace(device, 0, c.data) != 0:
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))

    return Expected


def _check(before, expected):
    tvm.ir.assert_structural_equal(_lower(before), expected)


DEVICE_PLACEMENTS = [name for name, (_, _, device) in PLACEMENTS.items() if device != KDLCPU]
CPU_PLACEMENTS = [name for name, (_, _, device) in PLACEMENTS.items() if device == KDLCPU]


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_SCALAR_ON_DEVICE)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("placement", DEVICE_PLACEMENTS)
def test_small_local_cell_of_device_function_stays_on_stack(placement, dtype):
    """A host-level scalar cell (local scope, one element stored by the host) of a cuda
    host function is host memory: it stays a stack allocation."""
    _check(
        _before(placement, "local", dtype),
        _expected_stack(placement, "local", dtype),
    )


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("placement", DEVICE_PLACEMENTS)
def test_small_global_buffer_of_device_function_is_workspace(placement, dtype):
    """Control: the same allocation in global scope is an intermediate buffer for the
    kernels, a workspace on the device."""
    _check(
        _before(placement, "global", dtype),
        _expected_workspace(placement, "global", dtype),
    )


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("placement", CPU_PLACEMENTS)
@pytest.mark.parametrize(
    "scope, on_stack", [("global", True), ("local", False)], ids=["global", "local"]
)
def test_small_allocation_of_cpu_function(placement, dtype, scope, on_stack):
    """Controls on a CPU device: a small global allocation stays on the stack, a local one
    is a CPU workspace (host memory either way)."""
    expected = _expected_stack if on_stack else _expected_workspace
    _check(_before(placement, scope, dtype), expected(placement, scope, dtype))


@pytest.mark.parametrize("scope", ["local", "global"])
@pytest.mark.parametrize("placement", ["cuda_target", "cuda_attr_on_llvm", "cpu_target"])
def test_large_host_allocation_is_workspace(scope, placement):
    """256 float32 (1024 bytes, not under kMaxStackAlloca): a workspace on the function's
    device in every scope; only small allocations may stay on the host stack."""
    before = _before(placement, scope, "float32", extent=256)
    _check(before, _expected_workspace(placement, scope, "float32", extent=256))


def test_cpu_global_stack_threshold():
    """255 float32 (1020 bytes) stays on a CPU stack, 256 (1024 bytes) does not."""
    _check(
        _before("cpu_target", "global", "float32", extent=255),
        _expected_stack("cpu_target", "global", "float32", extent=255),
    )
    _check(
        _before("cpu_target", "global", "float32", extent=256),
        _expected_workspace("cpu_target", "global", "float32", extent=256),
    )


def test_symbolic_local_allocation_is_workspace():
    """A local allocation of non-constant size cannot live on the stack: a device workspace."""

    @I.ir_module
    class Before:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr({"target": CUDA, "tirx.is_host_func": True})
            T.attr("default", "device_id", 0)
            c = T.alloc_buffer((n,), "float32", scope="local")
            c[0] = T.float32(1.5)

    @I.ir_module
    class Expected:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr({"target": CUDA, "tirx.is_host_func": True})
            c = T.decl_buffer(
                (n,),
                "float32",
                data=T.call_intrin(
                    T.handle("float32", "local").ty,
                    "tirx.TVMBackendAllocWorkspace",
                    KDLCUDA,
                    0,
                    T.uint64(4) * T.Cast("uint64", n),
                    2,
                    32,
                ),
                scope="local",
            )
            if T.isnullptr(c.data):
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))
            c[0] = T.float32(1.5)
            if T.TVMBackendFreeWorkspace(KDLCUDA, 0, c.data) != 0:
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))

    _check(Before, Expected)


@pytest.mark.parametrize("scope", ["local", "global"])
@pytest.mark.parametrize("placement", ["cuda_target", "cuda_attr_on_llvm"])
def test_disable_lower_builtin_annotation(scope, placement):
    """An allocation annotated with disable_lower_builtin is left alone, even on cuda."""
    annotations = {"disable_lower_builtin": True}
    before = _before(placement, scope, "float32", annotations=annotations)
    _check(before, _expected_stack(placement, scope, "float32", annotations=annotations))


def test_device_function_is_not_lowered():
    """A kernel (cuda target, not a host function) keeps its local cell: the pass skips it."""

    @I.ir_module
    class Before:
        @T.prim_func
        def main():
            T.func_attr({"target": CUDA})
            c = T.alloc_buffer((1,), "float32", scope="local")
            c[0] = T.float32(1.5)

    _check(Before, Before)


if __name__ == "__main__":
    tvm.testing.main()
