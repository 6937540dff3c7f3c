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
"""Tests of the wrong-fix machinery: scripts/wrong_fixes.py, conftest's --wrong-fix and the
xfail policy's refusal of catch-all ``raises=`` (this repository only)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
# the root conftest by path: inside a pytest run the name "conftest" is taken
_spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)
from bug_reports import (  # noqa: E402
    BUG_REPORTS,
    KILLS_THE_PROCESS,
    NO_REFERENCE_FIX,
    REFERENCE_FIXED,
)
from harness import wrong_fixes  # noqa: E402


def run(*args):
    proc = subprocess.run(
        [sys.executable, *map(str, args)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_every_report_with_a_reference_fix_has_wrong_fixes_with_a_description(
    reference_fixes_load,
):
    catalogue = wrong_fixes.catalogue()
    assert {report for report, _ in catalogue} == set(REFERENCE_FIXED)
    for (report, name), text in catalogue.items():
        assert text and "\n" not in text, (report, name)
    # the catalogue is read from the tables and the modules' sources: each module imports, and
    # defines the wrong fixes read there
    for report in BUG_REPORTS:
        listed = {n: text for (r, n), text in catalogue.items() if r == report}
        imported = {}
        for number, path in wrong_fixes._rounds(report):
            if path is None:
                imported.update(wrong_fixes.rounds(report)[number])
            else:
                module = importlib.import_module(f"bugs.{report}.{path.stem}")
                imported.update(module.WRONG_FIXES)
        assert imported == listed, report


@pytest.mark.parametrize(
    "text",
    [
        '[round1.x]\nmistake = "m"\nunsen = "typo"\nedits_of = "y"\n',
        '[round1.x]\nmistake = "m"\nedits_of = "y"\nrun = "z"\n',
        '[round1.x]\nedits_of = "y"\n',
        '[first.x]\nmistake = "m"\nedits_of = "y"\n',
    ],
    ids=["unknown-key", "two-ways", "no-mistake", "not-a-round"],
)
def test_a_malformed_wrong_fix_table_is_refused(tmp_path, text):
    """A wrong-fix table with a misspelt key, two ways to make a fix, or no mistake is refused."""
    path = tmp_path / "wrong_fixes.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match="wrong_fixes.toml"):
        wrong_fixes._table_version(path, 0)


def test_a_round_both_a_module_and_a_table_round_is_refused(tmp_path, monkeypatch):
    """Round 1 as wrong_fixes.py and as [round1] of wrong_fixes.toml is refused, not merged."""
    folder = tmp_path / "host_scalar"
    folder.mkdir()
    (folder / "wrong_fixes.py").write_text('WRONG_FIXES = {"a": "m"}\n')
    (folder / "wrong_fixes.toml").write_text('[round1.b]\nmistake = "m"\nedits_of = "a"\n')
    monkeypatch.setattr(wrong_fixes, "BUGS", tmp_path)
    with pytest.raises(ValueError, match=r"round\(s\) \[1\] both a module and a table round"):
        wrong_fixes.catalogue()


def test_edits_of_that_come_back_to_a_fix_are_refused(tmp_path, monkeypatch):
    """Wrong fixes whose edits_of lead back to themselves are refused, the chain named."""
    folder = tmp_path / "host_scalar"
    folder.mkdir()
    (folder / "wrong_fixes.toml").write_text(
        '[round1.a]\nmistake = "m"\nedits_of = "b"\n[round1.b]\nmistake = "m"\nedits_of = "a"\n'
    )
    monkeypatch.setattr(wrong_fixes, "BUGS", tmp_path)
    with pytest.raises(ValueError, match="host_scalar: edits_of goes round: a -> b -> a"):
        wrong_fixes.edits("host_scalar", "a")


def test_list_names_every_wrong_fix_but_the_unseen():
    """--list names every wrong fix but those a module lists in UNSEEN (not run)"""
    rc, out, _ = run("scripts/wrong_fixes.py", "--list")
    assert rc == 0
    listed = {line.split()[0] for line in out.splitlines()}
    unseen = {key for key in wrong_fixes.catalogue() if wrong_fixes.listed(*key, "UNSEEN")}
    assert unseen
    assert listed == {f"{r}:{n}" for r, n in wrong_fixes.catalogue() if (r, n) not in unseen}


@pytest.mark.parametrize("only", ["nope", "host_scalar:nope"])
def test_unknown_wrong_fix_is_a_one_line_error(only):
    rc, _, err = run("scripts/wrong_fixes.py", "--only", only)
    assert rc == 2
    assert err.startswith("wrong_fixes: error: unknown wrong fix") and err.count("\n") == 1


@pytest.mark.parametrize("spec", ["host_scalar", "nope:x", "verify_memory:nope"])
def test_bad_wrong_fix_option_is_a_usage_error(spec):
    rc, _, err = run(
        "scripts/run_pytest.py", "-p", "no:cacheprovider", "--co", "-q", "--wrong-fix", spec
    )
    assert rc == 4
    assert "--wrong-fix:" in err


def test_killed_needs_two_tests_one_upstream(wrong_fix_runner):
    killed = wrong_fix_runner.killed
    assert killed(["tests/python/a.py::t", "tests/proof/b.py::t"])
    assert not killed(["tests/python/a.py::t"])
    assert not killed(["tests/proof/a.py::t", "tests/proof/b.py::t"])


def test_only_the_runtime_fix_needs_an_opencl_device():
    """The wrong fixes that only a launch tells apart (uint64's OpenCL runtimes) are the ones
    judged where a device is; every other report's are judged everywhere."""
    needing = {report for report in BUG_REPORTS if wrong_fixes.needs_opencl(report)}
    assert needing == {"uint64_scalar"}


def test_reports_without_a_reference_fix_say_why():
    """A report without a reference fix has a reason, and no wrong fixes (nothing to vary)."""
    for report, why in NO_REFERENCE_FIX.items():
        assert why.strip() and report not in REFERENCE_FIXED
        assert not [r for r, _ in wrong_fixes.catalogue() if r == report]


@pytest.mark.parametrize("raises", [Exception, BaseException, (ValueError, Exception)])
def test_catch_all_raises_is_refused(raises):
    assert conftest._too_broad(raises)


@pytest.mark.parametrize("raises", [ValueError, AssertionError, (ValueError, KeyError)])
def test_specific_raises_is_accepted(raises):
    assert not conftest._too_broad(raises)


@pytest.mark.parametrize(
    "marks, report, accepted",
    [
        ({"gpu"}, "host_scalar", True),
        pytest.param(
            set(),
            next(iter(KILLS_THE_PROCESS), None),
            True,
            marks=pytest.mark.skipif(not KILLS_THE_PROCESS, reason="no report kills the process"),
        ),
        (set(), "host_scalar", False),
        (set(), None, False),
    ],
    ids=["gpu", "kills-the-process", "cpu-test-of-another-report", "no-report"],
)
def test_run_false_only_where_the_bug_kills_the_process(marks, report, accepted):
    """``run=False`` names the outcome only on a GPU test or a KILLS_THE_PROCESS report's test."""
    mark = pytest.mark.xfail(strict=True, run=False, reason="r").mark
    assert conftest._names_outcome(mark, marks, report) is accepted


def test_each_wrong_fix_installs_from_the_round_that_declares_it():
    """A wrong fix is found in its own round: a module (wrong_fixes_<round>.py) declares it in
    its WRONG_FIXES, a table round (wrong_fixes.toml) as one of its fixes, with edits."""
    for report, name in wrong_fixes.catalogue():
        number, path = wrong_fixes._round_of(report, name)
        if path is None:
            assert wrong_fixes.edits(report, name), (report, name, number)
        else:
            module = wrong_fixes._module(report, path)
            assert name in module.WRONG_FIXES, (report, name, module.__name__)


@pytest.mark.parametrize("args", [[], ["--tvm-tree", "/nonexistent/tvm"]])
def test_tree_check_bad_input_is_a_one_line_error(args):
    rc, _, err = run("scripts/tvm_tree_check.py", *args)
    assert rc == 2
    assert "Traceback" not in err
