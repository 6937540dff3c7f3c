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
"""test_lower_iket_inplace.py and test_immutable_module_compile.py on the apache/tvm-tirx line
(this repository only; it runs under .venv-tirx's interpreter and skips elsewhere):

    file=bugs/lower_iket_inplace/proof/test_inplace_passes_tirx.py
    .venv-tirx/bin/python scripts/run_pytest.py $file
    .venv-tirx/bin/python scripts/run_pytest.py $file --reference-fixes

LowerIket over each annotation form, both branches and several kernels, and
``tvm_tirx.tirx.compile`` under ``testing.immutable_module`` on programs that exercise that
package's pipeline (BindTarget, BindBackendConfig, SpecializeEntryHelpers, TileDispatch, the
layout, flattening, narrowing, vectorizing, unrolling and legalizing passes, AnnotateEntryFunc,
SplitHostDevice, LowerIket, MakePackedAPI and the finalization passes). Under the reference
fixes of AnnotateEntryFunc, SplitHostDevice and LowerIket every program compiles. The module
pass SpecializeDeviceHelpers, which none of them makes rewrite anything, is applied alone."""

import pytest

pytest.importorskip("tvm_tirx")

import tvm_ffi
import tvm_tirx
import tvm_tirx.testing
from lower_iket_inplace_cases import assert_input_kept, bfloat16_float8, lower_iket_input
from tvm_tirx.backend.cuda.iket import IketProfiler
from tvm_tirx.backend.cuda.transform import LowerIket, SpecializeDeviceHelpers
from tvm_tirx.script import tirx as T

SM90 = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_90a"})
SM80 = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})
SM75 = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_75"})
IMMUTABLE = "testing.immutable_module"

ANNOTATE = pytest.mark.xfail(
    strict=True,
    raises=RuntimeError,
    reason="AnnotateEntryFunc changes its input module in place (the first pass to fail)",
)
SPLIT = pytest.mark.xfail(
    strict=True, raises=RuntimeError, reason="SplitHostDevice changes its input module in place"
)
IKET_IMMUTABLE = pytest.mark.xfail(
    strict=True, raises=RuntimeError, reason="LowerIket changes its input module in place"
)
IKET_INPUT = pytest.mark.xfail(
    strict=True, raises=ValueError, reason="LowerIket changes its input module in place"
)
IKET_COMPILE = pytest.mark.xfail(
    strict=True,
    raises=RuntimeError,
    reason="LowerIket changes its input module in place, and the function map it iterates",
)


@T.function
def _mark(A: T.Tensor((32,), "int32")):
    iket = IketProfiler()
    with T.launch_thread("threadIdx.x", 32) as tx:
        if tx % 2 == 0:
            iket.mark("even")
        A[tx] = tx + 1


@T.function
def _payload(A: T.Tensor((32,), "int32"), n: T.int64):
    iket = IketProfiler()
    with T.launch_thread("threadIdx.x", 32) as tx:
        iket.mark("lane", tx)
        iket.mark("i64", n)
        iket.mark("f32", T.float32(-3.25))
        A[tx] = tx


@T.function
def _push_pop(A: T.Tensor((32,), "int32")):
    iket = IketProfiler()
    with T.launch_thread("threadIdx.x", 32) as tx:
        iket.range_push("outer")
        iket.range_push("inner", T.float32(1.5))
        iket.mark("point")
        iket.range_pop()
        iket.range_pop()
        A[tx] = tx


FORMS = {"mark": _mark, "payload": _payload, "push-pop": _push_pop}


def _kernels(count):
    """A function of ``count`` launches over threadIdx.x, each with an IKET mark"""
    body = "".join(
        f'    with T.launch_thread("threadIdx.x", 32) as tx:\n'
        f'        T.cuda.iket_mark("k{k}")\n'
        f"        A[tx] = A[tx] + {k}\n"
        for k in range(count)
    )
    text = f'@T.function\ndef main(A: T.Tensor((32,), "int32")):\n{body}'
    return tvm_tirx.script.from_source(text, {"T": T})


@IKET_INPUT
@pytest.mark.parametrize("iket_enabled", [False, True], ids=["strip", "instrument"])
@pytest.mark.parametrize("form", FORMS)
def test_lower_iket_leaves_its_input_unchanged_for_each_form(form, iket_enabled):
    """Marks, payloads and stack ranges: the IRModule given keeps them."""
    assert_input_kept(FORMS[form], iket_enabled)


@IKET_INPUT
@pytest.mark.parametrize("iket_enabled", [False, True], ids=["strip", "instrument"])
@pytest.mark.parametrize("kernels", [2, 5])
def test_lower_iket_leaves_its_input_unchanged_with_several_kernels(kernels, iket_enabled):
    """A split IRModule of several marked kernels: the IRModule given keeps every mark."""
    assert_input_kept(_kernels(kernels), iket_enabled)


@pytest.mark.parametrize("enabled_by", ["attr", "run-iket-child"])
def test_lower_iket_numbers_the_events_of_every_kernel_together(enabled_by, monkeypatch):
    """IKET enabled by cuda.iket.enabled = 3 or a verified run-iket child's environment: the
    three kernels a function launches are instrumented together, their events numbered 1, 2, 3
    (each kernel instrumented alone numbers its event 1)."""
    Before = lower_iket_input(_kernels(3), iket_enabled=False)
    if enabled_by == "attr":
        Before = Before.with_attr("cuda.iket.enabled", 3)
    else:
        monkeypatch.setenv("TVM_TIRX_IKET_INJECTED_CHILD_ENABLE", "1")
        monkeypatch.setenv("CUDA_INJECTION64_PATH", "/verified/libsmodel_injection.so")
        monkeypatch.setenv("SMODEL_INJECTION_CONFIG", "/verified/config.json")
    After = LowerIket()(Before)
    event_op = tvm_tirx.ir.Op.get("tirx.cuda.iket_official_event")
    events = []

    def visit(call):
        if call.op.same_as(event_op):
            events.append(int(call.args[0]))

    tvm_ffi.structural_walk(After, (tvm_tirx.ir.Call, visit))
    assert sorted(events) == [1, 2, 3]


@pytest.mark.parametrize(
    "kernels", [1, 2, pytest.param(3, marks=IKET_COMPILE), pytest.param(6, marks=IKET_COMPILE)]
)
def test_compile_strips_the_iket_marks_of_every_kernel(kernels):
    """tvm_tirx.tirx.compile lowers a function of several marked kernels."""
    tvm_tirx.tirx.compile(_kernels(kernels), target=SM90)


# ------------------------------------------------------------------------------------------
# compile under testing.immutable_module


def _settings(arch):
    target = tvm_tirx.target.Target({"kind": "cuda", "arch": arch})
    return {"target": target, "backend_config": '{"cuda":{"arch":"' + arch + '"}}'}


_HOST, _ENTRY = _settings("sm_100a"), _settings("sm_90a")


@T.ir_module
class _EntryHelpers:
    @T.function(private=True)
    def helper(x: T.int32) -> T.int32:
        T.func_attr(_HOST)
        return x + 1

    @T.function
    def main(A: T.Tensor((32,), "int32"), B: T.Tensor((32,), "float32")):
        T.func_attr(_HOST)
        iket = IketProfiler()
        with T.device_entry(attrs=_ENTRY):
            iket.mark("entry")
            A[0] = _EntryHelpers.helper(A[0])
            B[0] = T.exp(B[0])


@T.ir_module
class _HostScalarTwoKernels:
    @T.function(private=True)
    def helper(x: T.int32) -> T.int32:
        return x + 1

    @T.function
    def main(A: T.Tensor((32,), "int32"), B: T.Tensor((32,), "bfloat16"), n: T.int32):
        iket = IketProfiler()
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.int32, scope="local")])
        c[0] = n * 2
        with T.launch_thread("threadIdx.x", 32) as tx:
            if tx % 2 == 0:
                iket.mark("even")
            A[tx] = _HostScalarTwoKernels.helper(A[tx]) + c[0]
        with T.launch_thread("threadIdx.x", 32) as tx:
            iket.mark("second", tx)
            B[tx] = B[tx] * T.bfloat16(2)


# name: (program, target, whether it carries IKET marks)
PROGRAMS = {
    "entry-helpers-iket": (_EntryHelpers, SM90, True),
    "host-scalar-two-kernels-iket": (_HostScalarTwoKernels, SM90, True),
    "bfloat16-float8-sm75": (bfloat16_float8(), SM75, False),
}


@pytest.mark.parametrize(
    "program",
    [
        pytest.param(name, marks=[ANNOTATE, SPLIT, *([IKET_IMMUTABLE] if iket else [])])
        for name, (_, _, iket) in PROGRAMS.items()
    ],
)
def test_compile_under_immutable_module(program):
    """No pass of tvm_tirx.tirx.compile changes the IRModule it is given."""
    mod, target, _ = PROGRAMS[program]
    with tvm_tirx.ir.transform.PassContext(config={IMMUTABLE: True}):
        tvm_tirx.tirx.compile(mod, target=target)


def test_specialize_device_helpers_leaves_its_input_unchanged():
    """SpecializeDeviceHelpers clones a helper two kernel groups share in a new IRModule only."""

    @T.ir_module
    class Before:
        @T.function(private=True)
        def helper(x: T.int32) -> T.int32:
            T.func_attr({"target": SM90})
            return x + 1

        @T.function
        def k90(A: T.Tensor((32,), "int32")):
            T.func_attr({"target": SM90, "calling_conv": 2})
            with T.launch_thread("threadIdx.x", 32) as tx:
                A[tx] = Before.helper(A[tx])

        @T.function
        def k80(A: T.Tensor((32,), "int32")):
            T.func_attr({"target": SM80, "calling_conv": 2})
            with T.launch_thread("threadIdx.x", 32) as tx:
                A[tx] = Before.helper(A[tx])

    Expected = Before.clone()
    with tvm_tirx.ir.transform.PassContext(config={IMMUTABLE: True}):
        After = SpecializeDeviceHelpers()(Before)
    assert len(After.functions) == 4  # the helper and its copy for the sm_80 group
    assert not tvm_ffi.structural_equal(After, Expected)
    tvm_tirx.ir.assert_structural_equal(Before, Expected)


if __name__ == "__main__":
    tvm_tirx.testing.main()
