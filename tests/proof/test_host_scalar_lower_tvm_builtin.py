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
"""LowerTVMBuiltin's allocation rule for host functions, swept (this repository only).

The upstream file pins four float32 cases. Here every combination of: how the function
learns its device (the target's kind, a ``device_type`` attribute on an llvm host as
MakePackedAPI writes it, a ``device_type`` attribute that overrides a cuda target with
kDLCPU), storage scope, dtype, and size around ``runtime::kMaxStackAlloca`` (1024 bytes),
plus symbolic sizes and the ``disable_lower_builtin`` annotation. The rule:

* on a non-CPU device a small constant-size ``local`` allocation (a host-level cell) stays on
  the host stack; today it becomes a workspace on the device (the host-level scalar report);
* every ``global`` allocation on a non-CPU device is a device workspace (kernel intermediates);
* on kDLCPU a small ``global`` allocation stays on the stack, a ``local`` one is a CPU
  workspace (host memory either way: unchanged by the fix);
* 1024 bytes or more, or a symbolic size: a workspace, in every scope.
"""

import pytest

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

CUDA = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})
LLVM = tvm.target.Target("llvm")
KDLCPU, KDLCUDA = 1, 2
# placement -> (function attributes, device_type attribute or None, the device it means)
PLACEMENTS = {
    "cuda-target": ({"target": CUDA, "tirx.is_host_func": True}, None, KDLCUDA),
    "llvm-attr-cuda": ({"target": LLVM}, KDLCUDA, KDLCUDA),
    "llvm-target": ({"target": LLVM}, None, KDLCPU),
    "cuda-attr-cpu": ({"target": CUDA, "tirx.is_host_func": True}, KDLCPU, KDLCPU),
}
# dtype -> (a value, DLDataType code, bits): every type code, both widths
DTYPES = {"float32": (1.5, 2, 32), "int64": (5, 0, 64), "uint32": (5, 1, 32)}
REASON = "host-level scalar cell of a cuda host function becomes a device workspace"


class CellOnDevice(AssertionError):
    """A small local allocation of a host function launching on a GPU is a device workspace."""


def _before(placement, scope, dtype, extent, annotations=None):
    func_attr, device_attr, _ = PLACEMENTS[placement]
    value = tvm.tirx.const(DTYPES[dtype][0], dtype)
    # two class names: TVMScript finds a class's source by its name
    if device_attr is None:

        @I.ir_module
        class BeforeDeviceFromTarget:
            @T.prim_func
            def main(n: T.int32):
                T.func_attr(func_attr)
                T.attr("default", "device_id", 0)
                c = T.alloc_buffer((extent,), dtype, scope=scope, annotations=annotations)
                c[0] = value

        return BeforeDeviceFromTarget

    @I.ir_module
    class BeforeDeviceFromAttr:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr(func_attr)
            T.attr("default", "device_id", 0)
            T.attr("default", "device_type", device_attr)
            c = T.alloc_buffer((extent,), dtype, scope=scope, annotations=annotations)
            c[0] = value

    return BeforeDeviceFromAttr


def _expected_stack(placement, scope, dtype, extent, annotations=None):
    func_attr = PLACEMENTS[placement][0]
    value = tvm.tirx.const(DTYPES[dtype][0], dtype)

    @I.ir_module
    class Expected:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr(func_attr)
            c = T.alloc_buffer((extent,), dtype, scope=scope, annotations=annotations)
            c[0] = value

    return Expected


def _expected_workspace(placement, scope, dtype, extent):
    func_attr, _, device = PLACEMENTS[placement]
    value, code, bits = DTYPES[dtype]
    value = tvm.tirx.const(value, dtype)
    nbytes = T.uint64(extent * bits // 8)
    ptr_ty = T.handle(dtype, scope).ty

    @I.ir_module
    class Expected:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr(func_attr)
            c = T.decl_buffer(
                (extent,),
                dtype,
                data=T.call_intrin(
                    ptr_ty, "tirx.TVMBackendAllocWorkspace", device, 0, nbytes, code, bits
                ),
                scope=scope,
            )
            if T.isnullptr(c.data):
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))
            c[0] = value
            if T.TVMBackendFreeWorkspace(device, 0, c.data) != 0:
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))

    return Expected


def _check(before, expected, bug):
    after = tvm.tirx.transform.LowerTVMBuiltin()(before)
    if bug and "TVMBackendAllocWorkspace" in after.script():
        raise CellOnDevice(after.script())
    tvm.ir.assert_structural_equal(after, expected)


def _cases():
    """(placement, scope, dtype, elements, stays on the stack, is the report's case)."""
    for placement, (_, _, device) in PLACEMENTS.items():
        for scope in ("local", "global"):
            for dtype, (_, _, bits) in DTYPES.items():
                below, at = 1024 // (bits // 8) - 1, 1024 // (bits // 8)
                for extent in (1, below, at):
                    small = extent < at
                    if device == KDLCPU:
                        stack = small and scope == "global"
                    else:
                        stack = small and scope == "local"
                    yield placement, scope, dtype, extent, stack, stack and device != KDLCPU


CASES = [
    pytest.param(
        *case[:5],
        id="-".join(map(str, case[:4])),
        marks=[pytest.mark.xfail(strict=True, raises=CellOnDevice, reason=REASON)]
        if case[5]
        else [],
    )
    for case in _cases()
]


@pytest.mark.parametrize("placement, scope, dtype, extent, stack", CASES)
def test_host_allocation(placement, scope, dtype, extent, stack):
    before = _before(placement, scope, dtype, extent)
    if stack:
        expected = _expected_stack(placement, scope, dtype, extent)
    else:
        expected = _expected_workspace(placement, scope, dtype, extent)
    _check(before, expected, bug=stack and PLACEMENTS[placement][2] != KDLCPU)


@pytest.mark.parametrize("scope", ["local", "global"])
def test_symbolic_size_is_workspace(scope):
    """A size known only at run time cannot be a stack allocation, in any scope."""

    @I.ir_module
    class Before:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr({"target": LLVM})
            T.attr("default", "device_id", 0)
            T.attr("default", "device_type", KDLCUDA)
            c = T.alloc_buffer((n,), "float32", scope=scope)
            c[0] = T.float32(1.5)

    ptr_ty = T.handle("float32", scope).ty

    @I.ir_module
    class Expected:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr({"target": LLVM})
            c = T.decl_buffer(
                (n,),
                data=T.call_intrin(
                    ptr_ty,
                    "tirx.TVMBackendAllocWorkspace",
                    KDLCUDA,
                    0,
                    T.uint64(4) * T.Cast("uint64", n),
                    2,
                    32,
                ),
                scope=scope,
            )
            if T.isnullptr(c.data):
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))
            c[0] = T.float32(1.5)
            if T.TVMBackendFreeWorkspace(KDLCUDA, 0, c.data) != 0:
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))

    tvm.ir.assert_structural_equal(tvm.tirx.transform.LowerTVMBuiltin()(Before), Expected)


@pytest.mark.parametrize("scope", ["local", "global"])
@pytest.mark.parametrize("placement", ["cuda-target", "llvm-attr-cuda"])
def test_disable_lower_builtin_is_left_alone(placement, scope):
    annotations = {"disable_lower_builtin": True}
    before = _before(placement, scope, "float32", 1, annotations)
    expected = _expected_stack(placement, scope, "float32", 1, annotations)
    _check(before, expected, bug=False)


def test_kernel_is_not_lowered():
    """A device function (cuda target, not a host function) keeps its local cell."""

    @I.ir_module
    class Before:
        @T.prim_func
        def main():
            T.func_attr({"target": CUDA})
            c = T.alloc_buffer((1,), "float32", scope="local")
            c[0] = T.float32(1.5)

    tvm.ir.assert_structural_equal(tvm.tirx.transform.LowerTVMBuiltin()(Before), Before)
