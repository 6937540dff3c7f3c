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
"""The report's crash, in a child process (this repository only).

In-process the released InjectVirtualThread dies by SIGSEGV on a non-constant virtual thread
extent and takes the pytest session with it, so the upstream test does not run there
(``run=False``). Here the same programs run in ``python FILE --child CASE``, which prints one
JSON line (the pass constructor it runs, and the outcome: injected, or the error's type and
words), and:

* only a child killed by SIGSEGV or SIGBUS is the bug's exception, ``KilledBySignal``; any
  other failure of the child (an import error, a non-zero exit) is ``ChildFailed``
  (harness/child_process.py), which no xfail accepts; a wrong refusal is a plain assertion
  failure;
* the fixes under test reach the child (the root conftest puts harness/child_site on
  PYTHONPATH and sets TVM_REFERENCE_FIXES / TVM_WRONG_FIX), checked by a test that compares
  the child's pass with this process's;
* one test runs the released pass and the reference fix side by side, whatever the session
  installs: the first dies by a signal where the reference fix refuses the program.
"""

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # `python FILE --child ...`
from bugs import probe_common
from harness import child_process

ROOT = Path(__file__).resolve().parents[3]

REASON = "non-constant vthread extent: SIGSEGV in InjectVirtualThread"
# case -> (the tag, its extent, the program): a hand-written virtual_thread attribute run
# through the pass, alone, as function 0 or 1 of a module of two (the other one's extent
# is 2) or after a function of another dialect (a Relax function, an external one), or the
# report's thread_binding run through tvm.compile
CASES = {
    "vthread-param": ("vthread", "n", "pass"),
    "cthread-param": ("cthread", "n", "pass"),
    "vthread-expression": ("vthread", "n * 2", "pass"),
    # constant once simplified, but the pass reads the expression as it stands
    "vthread-simplifies-to-constant": ("vthread", "n - n + 2", "pass"),
    "vthread-load": ("vthread", "L[0]", "pass"),
    "cthread-load": ("cthread", "L[0]", "pass"),
    "first-function": ("vthread", "L[0]", "function-0"),
    "second-function": ("vthread", "L[0]", "function-1"),
    "after-relax-function": ("vthread", "L[0]", "after-relax"),
    "after-extern-function": ("cthread", "n", "after-extern"),
    "report": ("vthread", "L[0]", "compile"),
    "constant": ("vthread", "2", "pass"),
}
ATTR_PROGRAM = """
@T.prim_func(s_tir=True)
def main(L: T.Buffer((1,), "int32"), A: T.Buffer((16,), "int32"), n: T.int32):
    vt = T.int32()
    with T.attr(T.iter_var(vt, T.Range(0, EXTENT), "ThreadIndex", "TAG"), "virtual_thread", EXTENT):
        A[vt] = 1
"""
REPORT_PROGRAM = """
@T.prim_func
def main(L: T.Buffer((1,), "int32"), B: T.Buffer((64,), "float32")):
    for v in T.thread_binding(L[0], thread="vthread"):
        for i in T.thread_binding(8, thread="threadIdx.x"):
            B[i] = T.float32(1.0)
"""

RELAX_PROGRAM = """
@R.function
def other(x: R.Tensor((16,), "int32")) -> R.Tensor((16,), "int32"):
    return x
"""


class KilledBySignal(AssertionError):
    """The child died of the report's crash: a signal inside the pass."""


def _constructor():
    """Where the InjectVirtualThread constructor this process runs comes from."""
    from tvm.s_tir.transform import _ffi_api

    built = _ffi_api.InjectVirtualThread
    return getattr(built, "__module__", None) or type(built).__name__


def _other_function(how):
    """A function of another dialect: a Relax function, or an external function."""
    import tvm
    from tvm import relax
    from tvm.script import relax as R

    if how == "after-extern":
        return relax.ExternFunc("other")
    return tvm.script.from_source(RELAX_PROGRAM, extra_vars={"R": R})


def _child(case, install_fix):
    """In the child: run ``case``; print the constructor, then the outcome (JSON lines)."""
    import tvm
    from tvm.script import tirx as T

    if install_fix:
        from harness import reference_fixes

        reference_fixes.install(["vthread_dynamic_extent"])
    tag, extent, how = CASES[case]

    def attr_func(extent):
        text = ATTR_PROGRAM.replace("EXTENT", extent).replace("TAG", tag)
        return tvm.script.from_source(text, extra_vars={"T": T})

    if how == "compile":
        main = tvm.script.from_source(REPORT_PROGRAM, extra_vars={"T": T})
        run = lambda: tvm.compile(main, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))  # noqa: E731
    else:
        funcs = [attr_func(extent)]
        if how.startswith("function-"):
            funcs = [attr_func("2"), attr_func("2")]
            funcs[int(how.rpartition("-")[2])] = attr_func(extent)
        mod = tvm.IRModule(
            {f"f{i}": f.with_attr("global_symbol", f"f{i}") for i, f in enumerate(funcs)}
        )
        if how.startswith("after-"):  # the other function first, in the module's order
            mod = tvm.IRModule({"other": _other_function(how), **mod.functions})
        run = lambda: tvm.s_tir.transform.InjectVirtualThread()(mod)  # noqa: E731
    print(json.dumps({"constructor": _constructor()}), flush=True)  # before the crash
    try:
        run()
        report = {"outcome": "injected"}
    except Exception as err:
        lines = str(err).strip().splitlines()
        report = {"outcome": type(err).__name__, "words": lines[-1] if lines else ""}
    print(json.dumps(report), flush=True)


def _bare_env():
    """This environment without the fixes of the session (no child_site, no fix variables)."""
    env = {k: v for k, v in os.environ.items() if k not in child_process.FIX_VARIABLES}
    site = str(ROOT / "harness" / "child_site")
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != site]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def start_child(case, env=None, install_fix=False):
    args = [__file__, "--child", case] + (["--fix"] if install_fix else [])
    return probe_common.start_child(args, env=env)


def outcome(child):
    """The child's JSON lines as one report, or the exception of child_process.raise_for."""
    out, err = probe_common.finish(child)
    child_process.raise_for(child.returncode, err.strip()[-2000:], KilledBySignal)
    report = {}
    for line in child_process.json_lines(out):
        report.update(line)
    return report


def test_child_runs_the_pass_this_session_runs():
    """A child process sees the fixes this session runs with, whichever they are."""
    report = outcome(start_child("constant"))
    assert report == {"constructor": _constructor(), "outcome": "injected"}


def test_child_crash_is_told_apart(tmp_path):
    """A SIGSEGV is the report's crash; an ordinary failure of the child is not."""
    child_process.assert_crash_told_apart(tmp_path, KilledBySignal)


@pytest.mark.xfail(strict=True, raises=KilledBySignal, reason=REASON)
@pytest.mark.parametrize("case", [c for c in CASES if c != "constant"])
def test_non_constant_extent_refused_in_a_child(case):
    """Under the session's fixes the child refuses the program with a ValueError naming the
    tag; the released pass kills it."""
    tag = CASES[case][0]
    report = outcome(start_child(case))
    assert report["outcome"] == "ValueError", report
    assert f"the virtual thread {tag} needs a constant extent" in report["words"], report


def test_released_pass_dies_where_the_reference_fix_refuses():
    """Side by side, whatever the session installs: without a fix the child dies by a signal
    (or, on a TVM carrying the C++ fix, refuses in the reference fix's words); with the
    reference fix it gets the ValueError."""
    bare = start_child("cthread-load", env=_bare_env())
    fixed = start_child("cthread-load", env=_bare_env(), install_fix=True)
    want = "the virtual thread cthread needs a constant extent, but its extent is L[0]"
    refused = outcome(fixed)
    assert refused["outcome"] == "ValueError" and want in refused["words"], refused
    try:
        unfixed = outcome(bare)
    except KilledBySignal:
        return
    assert (unfixed["outcome"], unfixed["words"]) == (refused["outcome"], refused["words"])


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], "--fix" in sys.argv[3:])
