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
"""The root conftest's --expect-fixed / --reference-fixes, as people type them: the plain
flag means every report and never takes the path after it; ``=NAMES`` selects.

Each case runs pytest (collect only) in a child process on a tiny tree whose conftest is the
root conftest, and reads the report header line; the cases' children run side by side.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from bug_reports import PATCHED, REFERENCE_FIXED  # noqa: E402

# what each plain flag means: the reports with a C++ patch; those with a reference fix
ALL = {
    "--expect-fixed": ", ".join(sorted(PATCHED)),
    "--reference-fixes": ", ".join(sorted(REFERENCE_FIXED)),
}


def make_tree(tmp_path_factory):
    top = tmp_path_factory.mktemp("options")
    (top / "pytest.ini").write_text("[pytest]\n")
    # the root conftest itself, executed from its own path (so that it finds bug_reports.py)
    (top / "conftest.py").write_text(
        "import runpy\n\n"
        f"_ns = runpy.run_path({str(ROOT / 'conftest.py')!r})\n"
        "globals().update({k: v for k, v in _ns.items() if not k.startswith('__')})\n"
    )
    for sub, name in (("tests/python", "test_upstream"), ("tests/other", "test_elsewhere")):
        (top / sub).mkdir(parents=True)
        (top / sub / f"{name}.py").write_text(f"def {name}():\n    pass\n")
    return top


def run_pytest(tree, *args):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTEST_ADDOPTS", "TVM_REFERENCE_FIXES", "TVM_WRONG_FIX")
    }
    # keep what finds TVM (a source build), drop what a --reference-fixes parent added
    ours = {str(ROOT), str(ROOT / "harness" / "child_site")}
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in ours]
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
    # no third-party plugin (hypothesis's costs most of a child's time): the header and the
    # usage errors read here are the root conftest's alone
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    launcher = ROOT / "scripts" / "run_pytest.py"
    proc = subprocess.run(
        [sys.executable, launcher, "-p", "no:cacheprovider", "--collect-only", *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr


def expected_fixed(output):
    """The reports the header says are expected fixed, and whether only tests/python ran."""
    header = [line for line in output.splitlines() if "expected fixed:" in line]
    assert len(header) == 1, output
    collected_only_path = "test_upstream" in output and "test_elsewhere" not in output
    return header[0].split("expected fixed: ")[1].split(" (")[0], collected_only_path


def plain(option, path_first):
    return ("tests/python", option) if path_first else (option, "tests/python")


def by_value(option, path_first):
    selected = f"{option}=host_scalar,allocate_workspace"
    return ("tests/python", selected) if path_first else (selected, "tests/python")


VALUE_CASES = [("--expect-fixed", True), ("--expect-fixed", False), ("--reference-fixes", False)]
BAD_VALUES = [
    (("--expect-fixed", "host_scalar", "tests/python"), "write --expect-fixed=host_scalar"),
    (("--expect-fixed=tests/python",), "unknown report(s) ['tests/python']"),
    (("tests/python", "--reference-fixes=bogus"), "unknown report(s) ['bogus']"),
]
# the pytest command lines each test runs
COMMANDS = {
    "test_plain_flag_means_every_report_and_keeps_the_path": [
        plain(option, path_first) for option in ALL for path_first in (True, False)
    ],
    "test_value_selects_reports": [by_value(*case) for case in VALUE_CASES],
    "test_plain_flag_alone_runs_the_default_paths": [("--expect-fixed",)],
    "test_no_option_expects_nothing_fixed": [("tests/python",)],
    "test_bad_values_are_usage_errors": [args for args, _ in BAD_VALUES],
}


def start_children(pool, tests, tmp_path_factory):
    """The pytest runs in COMMANDS of ``tests``, started in ``pool`` (tests/tools/conftest.py)
    on one tree: {command line: future of (rc, output)}; first those that install the
    reference fixes (they import TVM)."""
    wanted = {args for test in tests for args in COMMANDS.get(test, ())}
    slow_first = sorted(wanted, key=lambda args: not any("--reference-fixes" in a for a in args))
    tree = make_tree(tmp_path_factory) if wanted else None
    return {args: pool.submit(run_pytest, tree, *args) for args in slow_first}


@pytest.mark.parametrize("option", ["--expect-fixed", "--reference-fixes"])
@pytest.mark.parametrize("path_first", [True, False], ids=["path-first", "option-first"])
def test_plain_flag_means_every_report_and_keeps_the_path(request, children, option, path_first):
    """The plain flag selects its reports (--expect-fixed: those with a C++ patch;
    --reference-fixes: those with a reference fix) and does not swallow the path after it."""
    if option == "--reference-fixes":
        request.getfixturevalue("reference_fixes_load")
    rc, out = children[plain(option, path_first)].result()
    assert rc == 0, out
    assert expected_fixed(out) == (ALL[option], True)


@pytest.mark.parametrize(
    "option, path_first",
    VALUE_CASES,
    ids=["expect-fixed-path-first", "expect-fixed-option-first", "reference-fixes"],
)
def test_value_selects_reports(request, children, option, path_first):
    """``--option=NAMES`` selects exactly those reports, before or after the path."""
    if option == "--reference-fixes":
        request.getfixturevalue("reference_fixes_load")
    rc, out = children[by_value(option, path_first)].result()
    assert rc == 0, out
    assert expected_fixed(out) == ("allocate_workspace, host_scalar", True)


def test_plain_flag_alone_runs_the_default_paths(children):
    """With no path, the plain flag still means its reports, and pytest collects all."""
    rc, out = children[("--expect-fixed",)].result()
    assert rc == 0, out
    assert expected_fixed(out)[0] == ALL["--expect-fixed"]
    assert "test_elsewhere" in out


def test_no_option_expects_nothing_fixed(children):
    """Without the options no report is expected fixed."""
    rc, out = children[("tests/python",)].result()
    assert rc == 0, out
    assert expected_fixed(out) == ("none", True)


@pytest.mark.parametrize(
    "args, message", BAD_VALUES, ids=["names-after-space", "path-as-value", "unknown-name"]
)
def test_bad_values_are_usage_errors(children, args, message):
    """Report names after a space, or names that are no report, stop with a usage error."""
    rc, out = children[args].result()
    assert rc == 4, out
    assert message in out
