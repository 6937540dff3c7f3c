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
root conftest, and reads the report header line.
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


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
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
    ours = {str(ROOT), str(ROOT / "reference_fixes" / "_site")}
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in ours]
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
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


@pytest.mark.parametrize("option", ["--expect-fixed", "--reference-fixes"])
@pytest.mark.parametrize("path_first", [True, False], ids=["path-first", "option-first"])
def test_plain_flag_means_every_report_and_keeps_the_path(tree, option, path_first):
    """The plain flag selects its reports (--expect-fixed: those with a C++ patch;
    --reference-fixes: those with a reference fix) and does not swallow the path after it."""
    args = ["tests/python", option] if path_first else [option, "tests/python"]
    rc, out = run_pytest(tree, *args)
    assert rc == 0, out
    assert expected_fixed(out) == (ALL[option], True)


@pytest.mark.parametrize(
    "option, path_first",
    [("--expect-fixed", True), ("--expect-fixed", False), ("--reference-fixes", False)],
    ids=["expect-fixed-path-first", "expect-fixed-option-first", "reference-fixes"],
)
def test_value_selects_reports(tree, option, path_first):
    """``--option=NAMES`` selects exactly those reports, before or after the path."""
    selected = f"{option}=host_scalar,allocate_workspace"
    args = ["tests/python", selected] if path_first else [selected, "tests/python"]
    rc, out = run_pytest(tree, *args)
    assert rc == 0, out
    assert expected_fixed(out) == ("allocate_workspace, host_scalar", True)


def test_plain_flag_alone_runs_the_default_paths(tree):
    """With no path, the plain flag still means its reports, and pytest collects all."""
    rc, out = run_pytest(tree, "--expect-fixed")
    assert rc == 0, out
    assert expected_fixed(out)[0] == ALL["--expect-fixed"]
    assert "test_elsewhere" in out


def test_no_option_expects_nothing_fixed(tree):
    """Without the options no report is expected fixed."""
    rc, out = run_pytest(tree, "tests/python")
    assert rc == 0, out
    assert expected_fixed(out) == ("none", True)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--expect-fixed", "host_scalar", "tests/python"], "write --expect-fixed=host_scalar"),
        (["--expect-fixed=tests/python"], "unknown report(s) ['tests/python']"),
        (["tests/python", "--reference-fixes=bogus"], "unknown report(s) ['bogus']"),
    ],
    ids=["names-after-space", "path-as-value", "unknown-name"],
)
def test_bad_values_are_usage_errors(tree, args, message):
    """Report names after a space, or names that are no report, stop with a usage error."""
    rc, out = run_pytest(tree, *args)
    assert rc == 4, out
    assert message in out
