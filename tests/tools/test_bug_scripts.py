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
"""The bugs' issue texts and their reproducers (bugs/<key>/): each script reproduces its bug on
the released package and passes under its reference fix (this repository only).

Four children (bugs/run_all.py --json: the apache/tvm line and the apache/tvm-tirx line, each
as released and with the reference fixes) start side by side at the session's start
(tests/tools/conftest.py); each imports its TVM once and runs every script of its line in a
fork of its own, so the four take a few seconds together.
"""

import ast
import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bug_reports import BUG_REPORTS
from harness import reference_fixes

ROOT = Path(__file__).resolve().parents[2]
BUGS = ROOT / "bugs"
RUN_ALL = BUGS / "run_all.py"
# the reports that affect apache/tvm-tirx too (bugs/README.md's table): a repro_tirx.py
TIRX = {
    "host_scalar",
    "verify_memory",
    "narrow_scalar",
    "split_host_device_inplace",
    "annotate_entry_func_inplace",
    "uint64_scalar",
    "bfloat16_scalar",
    "lower_iket_inplace",
}
# the reports filed upstream already: a comment on the existing issue (comment.md), not a new one
FILED = {"allocate_workspace": "apache/tvm#20479", "host_scalar": None}
# one text per cause: a report whose texts are another report's (the same mistake, one patch)
SHARED_TEXT = {"annotate_entry_func_inplace": "split_host_device_inplace"}
MAX_TEXT_LINES = 100
# what a reader upstream cannot follow: a link or a path into this repository, "here"
LOCAL = re.compile(
    r"\]\((?!https?://)|patches/|\.\./|reference_fix|wrong_fix|bugs/|tests/proof|\bhere\b"
    r"|\bthe [\w-]+ report\b",
    re.I,
)
SECTIONS = ("Expected behavior", "Actual behavior", "Environment", "Steps to reproduce", "Triage")
MAX_LINES = 30  # a script's lines after its license header
STANDALONE = {"re", "sys", "tvm", "tvm_tirx"}  # all a script may import
# the scripts that launch a kernel: where the line sees no device they print nothing, exit 2
LAUNCHES = {"uint64_scalar"}
# how each line's interpreter says whether it sees a device (exit 0) or not
DEVICE_CHECK = {
    "tvm": [str(ROOT / "scripts" / "opencl_runtime.py"), "--device"],
    "tirx": ["-c", "import sys, tvm_tirx; sys.exit(not any(getattr(tvm_tirx, k)(0).exist for k "
             "in ('cuda', 'rocm', 'opencl', 'vulkan', 'metal')))"],
}  # fmt: skip
# where each line's package is pinned
PINS = {
    "tvm": ("requirements.txt", "apache-tvm"),
    "tirx": ("requirements-tirx.txt", "apache-tvm-tirx"),
}
# the runs each test reads: (line, with the reference fixes)
READS = {
    "test_scripts_reproduce_on_the_released_package": [("tvm", False), ("tirx", False)],
    "test_scripts_pass_under_their_reference_fix": [("tvm", True), ("tirx", True)],
}


def _env():
    """This environment without what installs fixes in a child or brings another TVM in."""
    env = {k: v for k, v in os.environ.items() if k not in ("TVM_REFERENCE_FIXES", "TVM_WRONG_FIX")}
    site = str(ROOT / "harness" / "child_site")
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != site]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def _tirx_python():
    """scripts/setup.sh --tirx (a stamp check once .venv-tirx exists): its interpreter."""
    drop = ("TVM_PYTHON", "PYTHONPATH", "TVM_LIBRARY_PATH")  # what would bring another TVM
    env = {k: v for k, v in _env().items() if k not in drop}
    proc = subprocess.run(
        [str(ROOT / "scripts" / "setup.sh"), "--tirx"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, f"scripts/setup.sh --tirx failed:\n{proc.stderr}"
    return proc.stdout.strip().splitlines()[-1], env


def run_line(line, fixes):
    """bugs/run_all.py --json on ``line``: {"version", "scripts": {key: {"rc", "output"}}}."""
    python, env = (sys.executable, _env()) if line == "tvm" else _tirx_python()
    args = [python, str(RUN_ALL), "--json", *(["--reference-fixes"] if fixes else [])]
    proc = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    assert proc.returncode == 0, f"{' '.join(args[1:])} failed:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(proc.stdout)


def start_children(pool, tests, tmp_path_factory):
    """The runs in READS that ``tests`` read, started in ``pool`` (tests/tools/conftest.py)."""
    del tmp_path_factory
    wanted = {run for test in tests for run in READS.get(test, ())}
    return {run: pool.submit(run_line, *run) for run in sorted(wanted)}


def _pinned(line):
    """The package version requirements*.txt pins for ``line``."""
    name, package = PINS[line]
    return re.search(rf"^{package}==(\S+)$", (ROOT / name).read_text(), re.M).group(1)


def _results(children, line, fixes):
    result = children[(line, fixes)].result()
    if result["version"] != _pinned(line):
        pytest.skip(
            f"the scripts' verdicts are pinned for {_pinned(line)}, not {result['version']}"
        )
    return result["scripts"]


@functools.cache
def _device_seen(line):
    """Whether ``line``'s interpreter sees a device to launch a kernel on."""
    python, env = (sys.executable, _env()) if line == "tvm" else _tirx_python()
    proc = subprocess.run([python, *DEVICE_CHECK[line]], capture_output=True, env=env, check=False)
    return proc.returncode == 0


def _scripts(line):
    name = "repro.py" if line == "tvm" else "repro_tirx.py"
    return {path.parent.name for path in BUGS.glob(f"*/{name}")}


def _body(path):
    """A script's text after its license header (what its issue text shows)."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    return "\n".join(lines[start:]).strip() + "\n"


def texts(key):
    """{text path: the scripts it shows} of ``key``'s texts: the apache/tvm one (comment.md for a
    filed report, else issue.md) shows repro.py, issue_tirx.md shows repro_tirx.py; a report in
    SHARED_TEXT is shown by that report's texts."""
    home = BUGS / SHARED_TEXT.get(key, key)
    found = {home / ("comment.md" if key in FILED else "issue.md"): BUGS / key / "repro.py"}
    if key in TIRX:
        found[home / "issue_tirx.md"] = BUGS / key / "repro_tirx.py"
    return found


def all_texts():
    """{text path: [the scripts it shows]} over every report."""
    shown = {}
    for key in BUG_REPORTS:
        for text, script in texts(key).items():
            shown.setdefault(text, []).append(script)
    return shown


def test_every_report_has_its_texts_and_its_scripts():
    """bugs/<key>/ for every report: its texts (comment.md for a filed one, issue_tirx.md where
    tvm-tirx is hit, none where another report's text holds it), repro.py, probe.py, and
    repro_tirx.py where tvm-tirx is hit"""
    folders = {p.name for p in BUGS.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(BUG_REPORTS)
    names = ("issue.md", "issue_tirx.md", "comment.md")
    written = {path for name in names for path in BUGS.glob(f"*/{name}")}
    stray = written ^ set(all_texts())
    assert not stray, sorted(str(path.relative_to(BUGS)) for path in stray)
    assert _scripts("tvm") == set(BUG_REPORTS)
    assert _scripts("tirx") == TIRX
    # the probe scripts/check_tvm.py runs (bugs/probe_tirx.py: the tvm-tirx line's, shared)
    assert {p.parent.name for p in BUGS.glob("*/probe.py")} == set(BUG_REPORTS)
    for key, home in SHARED_TEXT.items():  # its README points to the shared text
        readme = (BUGS / key / "README.md").read_text()
        assert f"../{home}/issue.md" in readme, key


@pytest.mark.parametrize(
    "path", sorted(BUGS.glob("*/repro*.py")), ids=lambda p: p.parent.name + "/" + p.name
)
def test_script_is_short_and_standalone(path):
    """A script has at most 30 lines after its license header and imports only TVM and sys/re"""
    body = _body(path)
    assert len(body.splitlines()) <= MAX_LINES, f"{path}: {len(body.splitlines())} lines"
    imported = set()
    for node in ast.walk(ast.parse(body)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module.split(".")[0])
    assert imported <= STANDALONE, f"{path} imports {sorted(imported - STANDALONE)}"


@pytest.mark.parametrize("text", sorted(all_texts()), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_text_follows_the_template_and_shows_its_scripts(text):
    """issue*.md: a [Bug][TIRx|Relax|Runtime] title and the template's sections; every text: at
    most 100 lines, its scripts as they are, and nothing a reader upstream cannot follow"""
    body = text.read_text()
    lines = body.splitlines()
    assert len(lines) <= MAX_TEXT_LINES, f"{text}: {len(lines)} lines"
    if text.name != "comment.md":
        assert re.match(r"# \[Bug\]\[(TIRx|Relax|Runtime)\] \S", body), lines[0]
        positions = [body.find(f"### {section}\n") for section in SECTIONS]
        assert -1 not in positions and positions == sorted(positions), positions
    scripts = all_texts()[text]
    for path in scripts:
        assert f"```python\n{_body(path)}```" in body, f"{path.name} is not shown as it is"
    prose = re.sub(r"```.*?```", "", body, flags=re.S)  # code and output blocks aside
    assert not LOCAL.findall(prose), LOCAL.findall(prose)
    other = "tvm" if text.name == "issue_tirx.md" else "tvm_tirx"  # the other package's API
    assert not re.search(rf"^import {other}$", body, re.M), f"{text} imports {other}"


@pytest.mark.parametrize("key", sorted(FILED))
def test_filed_report_gets_a_comment_and_a_pr(key):
    """A report filed already gets comment.md (no new issue.md): it names the issue where it has
    a number and says which PR follows, by its title"""
    assert not (BUGS / key / "issue.md").exists()
    text = (BUGS / key / "comment.md").read_text()
    if FILED[key]:
        assert FILED[key] in text
    assert re.search(r'A PR follows: "\[FIX\]\[\w+\] [^"]+"', text, re.S), key


def test_readme_table_lists_every_bug():
    """bugs/README.md has a row per report that links its texts"""
    text = (BUGS / "README.md").read_text()
    for key in BUG_REPORTS:
        for path in texts(key):
            assert f"]({path.relative_to(BUGS)})" in text, (key, path.name)


# both_ways: the children drop the fixes this run installs, and give the same verdicts
@pytest.mark.both_ways
@pytest.mark.parametrize("line", ["tvm", "tirx"])
def test_scripts_reproduce_on_the_released_package(children, line):
    """Every script exits non-zero on the pinned package as released, with no traceback"""
    results = _results(children, line, False)
    assert set(results) == _scripts(line)
    for key, result in results.items():
        expected = 2 if key in LAUNCHES and not _device_seen(line) else 1
        assert result["rc"] == expected, f"{key}: exit {result['rc']}\n{result['output']}"
        assert "Traceback" not in result["output"], f"{key}:\n{result['output']}"


# both_ways: the children drop the fixes this run installs, and give the same verdicts
@pytest.mark.both_ways
@pytest.mark.parametrize("line", ["tvm", "tirx"])
def test_scripts_pass_under_their_reference_fix(children, line):
    """Each script exits 0 under its report's reference fix; one with no fix on its line fails"""
    results = _results(children, line, True)
    assert set(results) == _scripts(line)
    fixed_here = reference_fixes.KNOWN if line == "tvm" else reference_fixes.ON_TVM_TIRX
    for key, result in results.items():
        expected = 0 if key in fixed_here else 1
        if key in LAUNCHES and not _device_seen(line):
            expected = 2
        assert result["rc"] == expected, f"{key}: exit {result['rc']}\n{result['output']}"
        assert "Traceback" not in result["output"], f"{key}:\n{result['output']}"
