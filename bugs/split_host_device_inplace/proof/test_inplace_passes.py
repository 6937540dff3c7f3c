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
"""The module passes that changed their input (patch 0006), over more module shapes (this
repository only). The upstream files test each pass's rule once per branch and pass context
(plain, and under ``testing.immutable_module``, the check TVM's pass infrastructure runs), and
the whole output once; here the other shapes (one or two kernels in one or two functions, the
function with the device region anywhere among host-only ones, a device region with or without
a thread launch, a module without kernels, one without an inferable entry, more private
helpers), the whole output of each (the released pass's output on a copy of the module: the
fix changes nothing but where the pass writes), a pipeline running each pass as it runs the
released one (the Python stand-in's own wrapping pass: at opt_level 0, in view of the pass
instruments), and tvm.compile under ``testing.immutable_module``. The upstream modules
(``_host_with_kernel``, ``_host_only``, ``_no_thread``, ``_entry``, ``_helper``) and the
probes' controls are imported, not copied."""

import sys
from pathlib import Path

import pytest

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bugs.annotate_entry_func_inplace import probe as annotate_probe
from bugs.split_host_device_inplace import probe as split_probe
from harness import upstream_tests

SPLIT = upstream_tests.load("tirx-transform/test_tir_transform_split_host_device.py")
HELPERS = upstream_tests.load("tirx-transform/test_tir_transform_helpers.py")
SPLIT_IN_PLACE = pytest.mark.xfail(
    strict=True, raises=ValueError, reason="SplitHostDevice changes its input module in place"
)
ANNOTATE_IN_PLACE = "AnnotateEntryFunc changes its input module in place"


def _assert_input_kept(name, Before):
    """The pass ``tvm.tirx.transform.<name>`` leaves the module it is given as it was"""
    Expected = Before.clone()
    getattr(tvm.tirx.transform, name)()(Before)
    tvm.ir.assert_structural_equal(Before, Expected)


@T.prim_func(s_tir=True)
def _host_with_two_kernels(A: T.Buffer(8, "float32")):
    T.func_attr({"target": T.target("cuda", host="llvm")})
    with T.attr(T.target("cuda"), "target", 0):
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] + T.float32(1)
    with T.attr(T.target("cuda"), "target", 0):
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] * T.float32(2)


@SPLIT_IN_PLACE
@pytest.mark.parametrize("kernels, functions", [(1, 1), (2, 1), (2, 2)])
def test_split_host_device_leaves_its_input_unchanged(kernels, functions):
    """SplitHostDevice returns a new module: the module it is given keeps its functions"""
    main = SPLIT._host_with_kernel if kernels == 1 else _host_with_two_kernels
    Before = tvm.IRModule({"main": main, **({"other": main} if functions == 2 else {})})
    _assert_input_kept("SplitHostDevice", Before)


def test_split_host_device_without_kernels_leaves_its_input_unchanged():
    """A module without device regions is not changed, neither is the module given"""
    Before = split_probe.without_kernel()
    _assert_input_kept("SplitHostDevice", Before)


@T.prim_func(s_tir=True)
def _serial_kernel(A: T.Buffer(8, "float32")):
    T.func_attr({"target": T.target("cuda", host="llvm")})
    T.attr(T.target("cuda"), "target", 0)
    for i in range(8):
        A[i] = A[i] + T.float32(1)


# functions SplitHostDevice cuts kernels out of: a device region with a thread launch, two
# of them, a device region without a thread launch (one store; a serial loop)
DEVICE_FUNCTIONS = {
    "thread": SPLIT._host_with_kernel,
    "two-kernels": _host_with_two_kernels,
    "no-thread": SPLIT._no_thread,
    "serial-loop": _serial_kernel,
}


@SPLIT_IN_PLACE
@pytest.mark.parametrize("position", [0, 1, 2])
@pytest.mark.parametrize("device", DEVICE_FUNCTIONS)
def test_split_host_device_leaves_its_input_unchanged_among_host_functions(device, position):
    """Wherever the function with a device region stands among host-only functions, and
    whether or not its region launches threads, the module given keeps its functions"""
    functions = [SPLIT._host_only, SPLIT._host_only]
    functions.insert(position, DEVICE_FUNCTIONS[device])
    Before = tvm.IRModule({f"f{k}": func for k, func in enumerate(functions)})
    _assert_input_kept("SplitHostDevice", Before)


def _module(functions):
    """A module of ``functions`` with attributes and a global info"""
    infos = {"vdevice": [I.vdevice("llvm")]}
    return tvm.IRModule(functions, attrs={"note": "kept"}, global_infos=infos)


def _released(name, mod):
    """What the pass as released (the registry's, never wrapped by a fix) makes of a copy of
    ``mod``: the output the fixed pass must return"""
    return tvm.get_global_func(f"tirx.transform.{name}")()(mod.clone())


@I.ir_module
class _SplitByHand:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        _SplitByHand.kernel(A.data)

    @T.prim_func(private=True, s_tir=True)
    def kernel(A_ptr: T.handle("float32")):
        T.func_attr({"target": T.target("cuda")})
        A = T.decl_buffer(8, data=A_ptr)
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] + T.float32(1)


@T.prim_func(s_tir=True)
def _host_loop(A: T.Buffer(8, "float32")):
    T.func_attr({"target": T.target("llvm")})
    for i in range(8):
        A[i] = A[i] + T.float32(1)


# host code not in SSA form: the same loop twice, both binding one variable
_LOOP_TWICE = _host_loop.with_body(tvm.tirx.SeqStmt([_host_loop.body] * 2))
NOTHING_TO_SPLIT = {
    "split-by-hand": dict(_SplitByHand.functions_items()),
    "loop-twice": {"host_only": _LOOP_TWICE},
    "both": {**dict(_SplitByHand.functions_items()), "host_only": _LOOP_TWICE},
    "loop-twice-beside-a-region": {"main": SPLIT._host_with_kernel, "host_only": _LOOP_TWICE},
}


@pytest.mark.parametrize("shape", list(NOTHING_TO_SPLIT))
def test_split_host_device_lowers_a_module_with_nothing_to_split(shape):
    """With or without a device region to split, the output's launches are lowered (a module
    split by hand) and its host code is in SSA form"""
    Before = _module(NOTHING_TO_SPLIT[shape])
    Expected = _released("SplitHostDevice", Before)
    tvm.ir.assert_structural_equal(tvm.tirx.transform.SplitHostDevice()(Before), Expected)


@pytest.mark.parametrize("kernels, functions", [(1, 1), (2, 1), (2, 2)])
def test_split_host_device_output_is_the_whole_module(kernels, functions):
    """The output keeps the module's attributes, global infos and kernel-free function"""
    main = SPLIT._host_with_kernel if kernels == 1 else _host_with_two_kernels
    other = {"other": main} if functions == 2 else {}
    Before = _module({"main": main, **other, "host_only": SPLIT._host_only})
    Expected = _released("SplitHostDevice", Before)
    tvm.ir.assert_structural_equal(tvm.tirx.transform.SplitHostDevice()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=ANNOTATE_IN_PLACE)
@pytest.mark.parametrize("helpers", [2, 3])
def test_annotate_entry_func_leaves_its_input_unchanged_among_helpers(helpers):
    """The public entry among several private helpers is marked in a new module only."""
    helper = HELPERS._helper
    Before = tvm.IRModule(
        {"main": HELPERS._entry, **{f"helper{i}": helper for i in range(helpers)}}
    )
    _assert_input_kept("AnnotateEntryFunc", Before)


@pytest.mark.parametrize("helpers", [0, 1, 2])
def test_annotate_entry_func_output_is_the_whole_module(helpers):
    """The output keeps the module's attributes, global infos and private helpers"""
    helper = HELPERS._helper
    Before = _module({"main": HELPERS._entry, **{f"helper{i}": helper for i in range(helpers)}})
    Expected = _released("AnnotateEntryFunc", Before)
    tvm.ir.assert_structural_equal(tvm.tirx.transform.AnnotateEntryFunc()(Before), Expected)


def test_annotate_entry_func_without_entry_leaves_its_input_unchanged():
    """A module with two public functions has no inferable entry: nothing changes"""
    Before = annotate_probe.two_public()
    _assert_input_kept("AnnotateEntryFunc", Before)


@tvm.instrument.pass_instrument
class _PassesRun:
    """Records the name of every pass the context runs"""

    def __init__(self):
        self.names = []

    def run_before_pass(self, _mod, info):
        self.names.append(info.name)


# each pass, a module it writes, and the report of its writing the module in place
PIPELINE_CASES = {
    "SplitHostDevice": (SPLIT._host_with_kernel, SPLIT_IN_PLACE.kwargs["reason"]),
    "AnnotateEntryFunc": (HELPERS._entry, ANNOTATE_IN_PLACE),
}


def _pipeline_params():
    """(pass, immutable_module) with the released pass's xfail where the option is on"""
    params = []
    for name, (_, reason) in PIPELINE_CASES.items():
        in_place = pytest.mark.xfail(strict=True, raises=tvm.error.InternalError, reason=reason)
        params.append(pytest.param(name, False, id=f"{name}-plain"))
        params.append(pytest.param(name, True, id=f"{name}-checked", marks=in_place))
    return params


# The C++ fix changes two pass bodies and nothing else: the pass keeps its opt_level (0) and
# runs in view of the context's instruments. The Python stand-in wraps it in a pass of its own
# (harness/input_copy.py), which must keep both
@pytest.mark.parametrize("opt_level", [0, 3])
@pytest.mark.parametrize("name, immutable_module", _pipeline_params())
def test_pipeline_runs_the_pass_at_every_opt_level_in_view_of_its_instruments(
    name, immutable_module, opt_level
):
    """A Sequential of the pass runs it at opt_level 0 too, and the context's instruments see
    the pass itself run, plain and under testing.immutable_module"""
    func, _ = PIPELINE_CASES[name]
    passes_run = _PassesRun()
    config = {"testing.immutable_module": immutable_module}
    with tvm.transform.PassContext(opt_level=opt_level, instruments=[passes_run], config=config):
        tvm.transform.Sequential([getattr(tvm.tirx.transform, name)()])(
            tvm.IRModule({"main": func})
        )
    assert f"tirx.{name}" in passes_run.names


@T.prim_func(s_tir=True)
def _kernel(A: T.Buffer(8, "float32")):
    for i in T.thread_binding(8, thread="threadIdx.x"):
        A[i] = A[i] + T.float32(1)


# the compile stops at the first pass that writes its input: AnnotateEntryFunc, then (a cuda
# kernel) SplitHostDevice. A run with one report's fix (a wrong-fix run) keeps the other's mark
SPLIT_COMPILE = pytest.mark.xfail(
    strict=True, raises=tvm.error.InternalError, reason=SPLIT_IN_PLACE.kwargs["reason"]
)


@pytest.mark.xfail(strict=True, raises=tvm.error.InternalError, reason=ANNOTATE_IN_PLACE)
@pytest.mark.parametrize("target", ["llvm", pytest.param("cuda", marks=SPLIT_COMPILE)])
def test_compile_under_immutable_module(target):
    """tvm.compile runs under testing.immutable_module: no pass changes the module it is given"""
    func = HELPERS._entry if target == "llvm" else _kernel
    with tvm.transform.PassContext(config={"testing.immutable_module": True}):
        tvm.compile(func, target=target)


if __name__ == "__main__":
    tvm.testing.main()
