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
"""The root conftest: the pytest options and checks of this repository (not an upstream file).

The upstream test files under tests/python mark every test that fails because of one of
the bug reports (bug_reports.py) with a strict xfail whose reason names the report. This
conftest:

* checks that policy at collection time: any other xfail under tests/python, or a bug
  xfail that is not strict or has no ``raises=`` (``run=False`` instead where the bug kills
  the process: on a GPU test, or on any test of a report of bug_reports.KILLS_THE_PROCESS),
  is a collection error; a ``run=False`` mark goes with the others where its report is
  expected fixed (by the C++, a reference fix or a wrong fix), so that the test runs there;
* ``--expect-fixed[=NAMES]``: removes the bug xfails, so that the bug tests must pass
  (for a TVM that carries the C++ fixes, e.g. the patched source build);
* ``--reference-fixes[=NAMES]``: installs this repository's Python reference fixes
  (bugs/<key>/reference_fix.py) for the session, in this process and in every child process
  the tests start, and implies ``--expect-fixed`` for the same reports;
* ``--wrong-fix=REPORT:NAME``: installs one deliberately wrong fix (bugs/<key>/wrong_fixes.toml,
  wrong_fixes*.py) instead of the reference fix, in this process and in child processes, and implies
  ``--expect-fixed=REPORT``; scripts/wrong_fixes.py runs the suite once per wrong fix and
  requires tests to fail. Other reports' bug xfails are not strict there: only the wrong
  fix's report is judged.
* skips the GPU bug tests of upstream files unless their report is expected fixed (and not
  by a wrong fix, but for a runtime's: an OpenCL runtime built with another header): run
  in-process on an unfixed TVM they may crash the whole session (the proof tests run their
  twins in child processes).
* loads TVM's OpenCL runtime plugin (scripts/opencl_runtime.py) where it is built for the
  TVM under test, before the first module of tests/python, tests/proof or bugs/ is imported: then
  tvm.opencl(0) and tvm.testing.env.has_opencl() work there (pocl, a CPU OpenCL device).

NAMES is a comma-separated subset of the report keys in bug_reports.py. Alone,
``--reference-fixes`` means every report and installs the fixes that exist (the others'
bug tests stay strict xfails, and the report header names them: reports without a
reference fix, bug_reports.NO_REFERENCE_FIX, and fixes not written for this TVM line);
``--expect-fixed`` alone means the reports that have a C++ patch (bug_reports.PATCHED:
what a patched source build carries).
"""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
from bug_reports import (  # noqa: E402
    BUG_REPORTS,
    BUILDS_ON,
    KILLS_THE_PROCESS,
    NO_REFERENCE_FIX,
    PATCHED,
    report_of,
)

# upstream test trees: apache/tvm's (tests/python) and apache/tvm-tirx's (tvm-tirx/tests/python)
UPSTREAM_TESTS = (ROOT / "tests" / "python", ROOT / "tvm-tirx" / "tests" / "python")
# the tests of this repository's tools: marked ``tools``; those whose verdict depends on the
# fixes a run installs are also marked ``both_ways`` (scripts/test.sh runs the rest once)
TOOLS_TESTS = ROOT / "tests" / "tools"
CRASH_SKIP = (
    "GPU bug test of an unfixed TVM: would crash the test process; "
    "its child-process twin in tests/proof runs instead"
)


def _names(value, option):
    if value is None:
        return set()
    every = set(PATCHED) if option == "--expect-fixed" else set(BUG_REPORTS)
    names = every if value == "all" else {n.strip() for n in value.split(",")}
    unknown = names - set(BUG_REPORTS)
    if unknown:
        raise pytest.UsageError(
            f"{option}: unknown report(s) {sorted(unknown)}; known: {sorted(BUG_REPORTS)}"
        )
    return names


# report-selecting options: alone they mean every report, ``=NAMES`` selects
_REPORT_OPTIONS = ("--expect-fixed", "--reference-fixes")


def _plain_flags_as_all(args):
    """Spell a plain ``--expect-fixed`` / ``--reference-fixes`` as ``=all``.

    argparse lets an optional value (``nargs="?"``) take the next argument, so
    ``pytest --expect-fixed tests/python`` would read the path as report names. Spelled
    ``--expect-fixed=all`` before argparse sees it, the flag takes nothing.
    """
    args = [os.fspath(a) for a in args]
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg not in _REPORT_OPTIONS:
            continue
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if nxt and not os.path.exists(nxt) and set(nxt.split(",")) <= {"all", *BUG_REPORTS}:
            raise pytest.UsageError(f"write {arg}={nxt} (the flag alone means every report)")
        args[i] = f"{arg}=all"
    return args


def pytest_addoption(parser):
    # pytest parses the whole command line only after the initial conftests (this one)
    # have added their options: spell the plain flags out for that parse
    parse = parser.parse
    parser.parse = lambda args, namespace=None: parse(_plain_flags_as_all(args), namespace)
    group = parser.getgroup("tvm bug reports")
    group.addoption(
        "--expect-fixed",
        nargs="?",
        const="all",
        default=None,
        metavar="NAMES",
        help="bug tests of these reports must pass (the TVM under test carries the fixes); "
        "alone: every report, =NAMES: a comma-separated subset",
    )
    group.addoption(
        "--reference-fixes",
        nargs="?",
        const="all",
        default=None,
        metavar="NAMES",
        help="install the Python reference fixes for these reports; implies --expect-fixed; "
        "alone: every report, =NAMES: a comma-separated subset",
    )
    group.addoption(
        "--wrong-fix",
        default=None,
        metavar="REPORT:NAME",
        help="install one wrong fix of bugs/<key>/wrong_fixes.py (see scripts/wrong_fixes.py "
        "--list); implies --expect-fixed=REPORT",
    )


def pytest_configure(config):
    fixes = _names(config.getoption("--reference-fixes"), "--reference-fixes")
    config._tvm_no_fix_here, config._tvm_no_fix = set(), set()
    if fixes:
        from harness import reference_fixes

        # a report whose reference fix does not exist on this TVM line keeps its bug tests
        # as they are (strict xfails), and the report header says so
        config._tvm_no_fix = fixes & set(NO_REFERENCE_FIX)
        config._tvm_no_fix_here = fixes - set(reference_fixes.available()) - config._tvm_no_fix
        fixes -= config._tvm_no_fix | config._tvm_no_fix_here
    expect = _names(config.getoption("--expect-fixed"), "--expect-fixed") | fixes
    wrong = config.getoption("--wrong-fix")
    config._tvm_wrong_report = None
    config._tvm_wrong_runtime = False
    if wrong:
        from harness import wrong_fixes

        try:
            report, _ = wrong_fixes.parse(wrong)
        except ValueError as err:
            raise pytest.UsageError(f"--wrong-fix: {err}") from None
        if report in fixes:
            raise pytest.UsageError(f"--wrong-fix={wrong} and the reference fix of {report}")
        expect.add(report)
        # tried where the series has it: on top of the fixes its patch builds on
        from harness import reference_fixes

        below = set(BUILDS_ON.get(report, ())) & set(reference_fixes.available())
        fixes = fixes | below
        expect |= below
        config._tvm_wrong_report = report
        # a wrong fix of a runtime (an OpenCL runtime with another header) gives wrong values
        # or the released refusal, no crash: its report's GPU tests run in-process
        config._tvm_wrong_runtime = wrong_fixes.needs_opencl(report)
    config._tvm_bug_expect_fixed = expect
    if fixes:
        reference_fixes.install(sorted(fixes))
        # child processes (GPU runs) install the same fixes through harness/child_site
        os.environ["TVM_REFERENCE_FIXES"] = ",".join(sorted(fixes))
    if wrong:
        wrong_fixes.install(wrong)
        os.environ["TVM_WRONG_FIX"] = wrong
    if fixes or wrong:
        site = str(ROOT / "harness" / "child_site")
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [site, str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        )


# the test trees whose modules may run kernels on OpenCL (the plugin is loaded before the first)
OPENCL_TESTS = (ROOT / "tests" / "python", ROOT / "tests" / "proof", ROOT / "bugs")
_opencl_tried = []


def pytest_collectstart(collector):
    """Load the OpenCL runtime plugin once, before the first module of OPENCL_TESTS is
    imported (its skipif marks ask for the device at import). Nothing happens where no TVM is
    importable or no plugin is built (opencl_runtime.load() returns the reason)."""
    if _opencl_tried or not isinstance(collector, pytest.Module):
        return
    path = Path(str(collector.path)).resolve()
    if not any(root in path.parents for root in OPENCL_TESTS):
        return
    _opencl_tried.append(path)
    if importlib.util.find_spec("tvm") is None:
        return
    from harness import reference_fixes

    reference_fixes.opencl_runtime().load()


def pytest_report_header(config):
    expect = sorted(config._tvm_bug_expect_fixed)
    fixes = os.environ.get("TVM_REFERENCE_FIXES", "")
    wrong = os.environ.get("TVM_WRONG_FIX", "")
    return [
        f"tvm bug reports expected fixed: {', '.join(expect) or 'none'}"
        + (f" (reference fixes installed: {fixes})" if fixes else "")
        + (f" (wrong fix installed: {wrong})" if wrong else "")
        + (
            f" (no reference fix: {', '.join(sorted(config._tvm_no_fix))}: strict xfails)"
            if config._tvm_no_fix
            else ""
        )
        + (
            f" (no reference fix on this TVM line: {', '.join(sorted(config._tvm_no_fix_here))})"
            if config._tvm_no_fix_here
            else ""
        )
    ]


def _names_outcome(mark, marks, report):
    """Whether a bug xfail says how the bug fails: ``raises=``, or ``run=False`` where the bug
    kills the process, so that nothing is raised: on a GPU test (a host write to device memory;
    its child-process twin in tests/proof records the signal), or on any test of a report of
    bug_reports.KILLS_THE_PROCESS (a crash on the CPU; its twin in bugs/<key>/proof records the
    signal)."""
    kills = "gpu" in marks or report in KILLS_THE_PROCESS
    return "raises" in mark.kwargs or (mark.kwargs.get("run") is False and kills)


def _too_broad(raises):
    types = raises if isinstance(raises, tuple) else (raises,)
    return any(t in (Exception, BaseException) for t in types)


def pytest_collection_modifyitems(config, items):
    expect = config._tvm_bug_expect_fixed
    problems = []
    for item in items:
        if TOOLS_TESTS in Path(str(item.path)).resolve().parents:
            item.add_marker("tools")
        upstream = any(root in Path(str(item.path)).resolve().parents for root in UPSTREAM_TESTS)
        marks = {mark.name for mark in item.iter_markers()}
        kept, bug_marks, crashes = [], [], False
        for mark in item.own_markers:
            if mark.name != "xfail":
                kept.append(mark)
                continue
            reason = str(mark.kwargs.get("reason", mark.args[1] if len(mark.args) > 1 else ""))
            report = report_of(reason)
            if upstream and report is None:
                problems.append(f"{item.nodeid}: xfail not tied to a bug report: {reason!r}")
            elif report and not (
                mark.kwargs.get("strict") is True and _names_outcome(mark, marks, report)
            ):
                problems.append(
                    f"{item.nodeid}: bug xfail needs strict=True and raises= (run=False only "
                    "where the bug kills the process: a GPU test, or a report of "
                    "bug_reports.KILLS_THE_PROCESS)"
                )
            elif report and "raises" in mark.kwargs and _too_broad(mark.kwargs["raises"]):
                problems.append(
                    f"{item.nodeid}: raises= must name the exception the bug raises, "
                    "not Exception or BaseException"
                )
            if report is None or report not in expect:
                if report is not None and config._tvm_wrong_report is not None:
                    # a wrong-fix run judges the wrong fix's report only: another report's
                    # bug test that passes there (a Python wrapper of the pass also hides that
                    # bug), or fails another way (the printer fix refuses the underlined print
                    # of another report's failed assertion), is no failure, so that it neither
                    # kills nor stops the run early
                    kwargs = {k: v for k, v in mark.kwargs.items() if k != "raises"}
                    mark = pytest.mark.xfail(*mark.args, **{**kwargs, "strict": False}).mark
                (kept if report is None else bug_marks).append(mark)
            unfixed = report not in expect or (
                report == config._tvm_wrong_report and not config._tvm_wrong_runtime
            )
            crashes |= report is not None and unfixed and upstream and "gpu" in marks
        if bug_marks:
            # a test of two bugs (one fix builds on the other) keeps one mark of an unfixed
            # bug, since pytest judges by the first xfail mark only: the one whose bug kills
            # the process (run=False) where there is one, else the one nearest the function
            kept.append(next((m for m in bug_marks if m.kwargs.get("run") is False), bug_marks[0]))
        if crashes:
            # run in-process, the device half of a bug test takes the whole pytest process
            # down on an unfixed (or wrongly fixed) TVM: a segfault. It runs only where the
            # fix is expected; its crash-isolated twin in tests/proof covers the rest
            kept.append(pytest.mark.skip(reason=CRASH_SKIP).mark)
        item.own_markers[:] = kept
    if problems:
        raise pytest.UsageError("xfail policy violated:\n  " + "\n  ".join(problems))
