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

Each text's ```text blocks are its scripts' output on the pinned package (bugs/README.md says
how a text quotes output): they are compared with what those released runs printed.
"""

import ast
import difflib
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bug_reports import BUG_REPORTS
from harness import reference_fixes

ROOT = Path(__file__).resolve().parents[2]
BUGS = ROOT / "bugs"
RUN_ALL = BUGS / "run_all.py"
# the reports that affect apache/tvm-tirx too (bugs/README.md's table): a repro_tirx.py
TIRX = {path.parent.name for path in BUGS.glob("*/repro_tirx.py")}
# the reports filed upstream already: a comment on the existing issue (comment.md), not a new
# one -> the number where its README names one
FILED = {
    path.parent.name: (
        re.findall(r"apache/tvm#\d+", path.with_name("README.md").read_text()) or [None]
    )[0]
    for path in BUGS.glob("*/comment.md")
}
# one text per cause: a report without texts of its own is shown by the texts of the report its
# README links them from (the same mistake, one patch)
SHARED_TEXT = {
    folder.name: re.search(r"\]\(\.\./(\w+)/issue\.md\)", (folder / "README.md").read_text())[1]
    for folder in BUGS.glob("*/")
    if (folder / "repro.py").is_file()
    and not any((folder / name).is_file() for name in ("issue.md", "comment.md"))
}
MAX_TEXT_LINES = 100
# what a reader upstream cannot follow: a link or a path into this repository, "here"
LOCAL = re.compile(
    r"\]\((?!https?://)|patches/|\.\./|reference_fix|wrong_fix|bugs/|tests/proof|\bhere\b"
    r"|\bthe [\w-]+ report\b",
    re.I,
)
SECTIONS = ("Expected behavior", "Actual behavior", "Environment", "Steps to reproduce", "Triage")
MAX_LINES = 30  # a script's lines after its license header
# all a script may import (subprocess: a crash is run in a child, as a report shows it)
STANDALONE = {"re", "subprocess", "sys", "tvm", "tvm_tirx"}
# the scripts that launch a kernel: where the line sees no device they say so and exit 2
# (a ``sys.exit(2)`` in the report's repro.py)
LAUNCHES = {
    path.parent.name for path in BUGS.glob("*/repro.py") if "sys.exit(2)" in path.read_text()
}
# of those, the ones whose text quotes their run on a device (pocl's OpenCL CPU device, which
# bugs/run_all.py loads: their bug shows in what the kernel computes); the others' texts quote
# their run without one
QUOTES_A_RUN = {"cthread_binding"}
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
    "test_text_quotes_what_its_scripts_print": [("tvm", False), ("tirx", False)],
    "test_a_drifted_quote_fails_naming_its_lines": [("tvm", False), ("tirx", False)],
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


# How a text quotes its scripts' output (bugs/README.md): a fenced block whose info string is
# ``text``; a fence may be indented (inside a list item), and its lines lose that indentation.
# Any other block (```python, a bare ```, ```c) shows something else and is not compared.
FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^`]*)$")
OUTPUT_BLOCK = "text"
ELISION = "..."  # a quoted line of its own: any number of printed lines (none too) left out
PROMPT = "$ "  # a quoted line that starts so is the command typed at a shell, not output
# TVM's log lines (stderr, "[12:34:56] src/...cc:80: Warning: ..."): which appear depends on the
# machine (no CUDA toolkit found, which OpenCL device), so a quote may leave any of them out
LOG_LINE = re.compile(r"^\[\d\d:\d\d:\d\d\] \S+:\d+: ")
# What differs between runs of the same script on the same package, rewritten alike in the quote
# and in the output before they are compared; everything else is compared as written.
NORMALISE = (
    # a log line's wall-clock time
    (re.compile(r"^\[\d\d:\d\d:\d\d\] "), "[hh:mm:ss] "),
    # a log line's source path up to src/: the directory the library was built in (the
    # wheel's /project/, a local build's folder)
    (re.compile(r"^(\[hh:mm:ss\] )\S*?/(src/\S+:\d+: )"), r"\1\2"),
    # memory addresses (object reprs, backtrace frames): lowercase hex of six digits or more;
    # LLVM writes its hex float constants in uppercase, and they are compared
    (re.compile(r"\b0x[0-9a-f]{6,}\b"), "0x?"),
    # temporary files and folders
    (re.compile(rf"(?:/tmp|{re.escape(tempfile.gettempdir())})/[^\s'\":,)]*"), "<tmp>"),
    # timings, e.g. "1.25 s", "0.8ms"
    (re.compile(r"\b\d+\.\d+ ?(?:s|ms|us|µs|ns)\b"), "<time>"),
    # trailing blanks: editors drop them from a text, and they do not show
    (re.compile(r"\s+$"), ""),
)


def _normal(line):
    """``line`` as compared: NORMALISE applied in order."""
    for pattern, replacement in NORMALISE:
        line = pattern.sub(replacement, line)
    return line


def quoted_outputs(body):
    """[(start, [lines])] of the ```text blocks of a text's ``body``, ``start`` the index of a
    block's first line in body.splitlines()."""
    blocks, lines, i = [], body.splitlines(), 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        i += 1
        if not fence:
            continue
        start, indent, block = i, len(fence["indent"]), []
        while i < len(lines) and lines[i].strip() != "```":
            # CommonMark: a content line loses as many leading blanks as the fence has
            block.append(lines[i][min(indent, len(lines[i]) - len(lines[i].lstrip(" "))) :])
            i += 1
        i += 1  # the closing fence
        if fence["info"].strip() == OUTPUT_BLOCK:
            blocks.append((start, block))
    return blocks


def quote_mismatch(quote, printed):
    """Where a ```text block's lines ``quote`` part from the lines ``printed``: None where they
    agree, else (i, j), the quoted line quote[i] and the printed line printed[j] that differ
    (i None: the block ended before the output; j None: the output ended before the block).

    The block is the whole output, line for line after NORMALISE, but for three kinds of line:
    a quoted ELISION line stands for any number of printed lines, a quoted PROMPT line is no
    output, and a printed LOG_LINE may be left out."""
    log = [bool(LOG_LINE.match(line)) for line in printed]
    seen = [_normal(line) for line in printed]

    def past_logs(positions):  # the positions reached by leaving out log lines too
        reached = set()
        for at in positions:
            while at < len(seen) and log[at] and at not in reached:
                reached.add(at)
                at += 1
            reached.add(at)
        return reached

    def printed_at(positions):  # the printed lines (not logs) a quoted line could be
        return [at for at in sorted(positions) if at < len(seen) and not log[at]]

    positions, elided = past_logs({0}), False
    for i, line in enumerate(quote):
        want = _normal(line)
        if line.startswith(PROMPT):
            continue
        if want.strip() == ELISION:
            positions, elided = set(range(min(positions), len(seen) + 1)), True
            continue
        matched = {at + 1 for at in positions if at < len(seen) and seen[at] == want}
        if not matched:
            there = printed_at(positions)
            if elided:  # any printed line after the elision could be meant: the closest first
                there.sort(key=lambda at: -difflib.SequenceMatcher(None, want, seen[at]).ratio())
            return i, there[0] if there else None
        positions, elided = past_logs(matched), False
    if len(seen) not in positions:
        return None, printed_at(positions)[0]
    return None


def shown_output(text, results):
    """[(script, line)]: what ``text``'s scripts printed in ``results`` (a run's "scripts"), one
    script after another in the order the text shows them."""
    body = text.read_text()
    scripts = sorted(all_texts()[text], key=lambda path: body.find(_body(path)))
    return [
        (path, line)
        for path in scripts
        for line in results[path.parent.name]["output"].splitlines()
    ]


def quote_mismatches(text, output):
    """A message for each ```text block of ``text`` that differs from ``output`` (shown_output's
    list): the text's line, the quoted line and the printed line where they part."""
    scripts = {path for path, _ in output}
    printed = [line for _, line in output]
    found = []
    for start, block in quoted_outputs(text.read_text()):
        mismatch = quote_mismatch(block, printed)
        if mismatch is None:
            continue
        i, j = mismatch
        where = start + 1 + (len(block) if i is None else i)  # the text's line, from 1
        by = output[j][0] if j is not None else None
        by = ", ".join(sorted(_relative(p) for p in ([by] if by else scripts)))
        found.append(
            f"{_relative(text)}:{where}: the quote differs from what {by} printed\n"
            f"  quoted:  {'<end of the block>' if i is None else repr(block[i])}\n"
            f"  printed: {'<end of the output>' if j is None else repr(printed[j])}"
        )
    return found


def _relative(path):
    path = Path(path)
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


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
    # the probe scripts/check_tvm.py runs (on the tvm-tirx line: probe_tirx.py, where that line
    # is hit; the others' probe.py says why it is not probed there)
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


def _printed_here(children, text):
    """shown_output of ``text`` on its line's package as released; a skip where a script that
    launches a kernel found a device (a GPU, or pocl's OpenCL device that bugs/run_all.py loads)
    and its text quotes its run without one, or found none and its text quotes a run on one
    (QUOTES_A_RUN; bugs/README.md)."""
    results = _results(children, "tirx" if text.name == "issue_tirx.md" else "tvm", False)
    for path in all_texts()[text]:
        key = path.parent.name
        found = results[key]["rc"] != 2
        if key in LAUNCHES and found != (key in QUOTES_A_RUN):
            seen, quoted = ("a", "without one") if found else ("no", "on one")
            pytest.skip(f"{key}'s script found {seen} device; the text quotes its run {quoted}")
    return shown_output(text, results)


@pytest.mark.parametrize("text", sorted(all_texts()), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_text_quotes_what_its_scripts_print(children, text):
    """A text quotes its scripts' output in ```text blocks, each what they print on the pinned
    package as released (bugs/README.md: "..." leaves lines out, and TVM's log lines may be)"""
    output = _printed_here(children, text)
    quotes = quoted_outputs(text.read_text())
    assert quotes, f"{_relative(text)} quotes no output in a ```text block (bugs/README.md)"
    problems = quote_mismatches(text, output)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("text", sorted(all_texts()), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_drifted_quote_fails_naming_its_lines(children, text, tmp_path):
    """A copy of a text with any one quoted line changed fails, naming the copy's line, the
    changed quoted line and the printed line it should be"""
    output = _printed_here(children, text)
    if not quoted_outputs(text.read_text()) or quote_mismatches(text, output):
        pytest.skip("no quote that agrees with the output to change (the test above says why)")
    lines = text.read_text().splitlines(keepends=True)
    for start, block in quoted_outputs(text.read_text()):
        for k, line in enumerate(block):
            if line.strip() == ELISION or line.startswith(PROMPT):
                continue
            drifted, copy = [*lines], tmp_path / text.name
            drifted[start + k] = drifted[start + k].rstrip("\n") + " (drifted)\n"
            copy.write_text("".join(drifted))
            problems = quote_mismatches(copy, output)
            assert len(problems) == 1, (start + k + 1, problems)
            assert problems[0].startswith(f"{copy}:{start + k + 1}: ")
            assert f"quoted:  {line + ' (drifted)'!r}" in problems[0]
            meant = [p for _, p in output if _normal(p) == _normal(line)]
            assert any(f"printed: {p!r}" in problems[0] for p in meant), problems[0]


# the rules a quote is compared by, on made-up output: (quoted lines, printed lines, where they
# part as quote_mismatch says it)
QUOTE_RULES = {
    "whole output": (["a", "b"], ["a", "b"], None),
    "a changed line": (["a", "B"], ["a", "b"], (1, 1)),
    "an extra quoted line": (["a", "b", "c"], ["a", "b"], (2, None)),
    "a printed line not quoted": (["a"], ["a", "b"], (None, 1)),
    "lines out of order": (["b", "a"], ["a", "b"], (0, 0)),
    "an elision": (["a", "...", "d"], ["a", "b", "c", "d"], None),
    "an elision at the start and end": (["...", "c", "..."], ["a", "b", "c", "d"], None),
    "after an elision, the closest printed line": (["...", "c2"], ["a", "b1", "c1"], (1, 2)),
    "a log line left out": (["a", "b"], ["[12:00:01] /x/src/a.cc:80: Warning: w", "a", "b"], None),
    "a log line quoted, at another time and build path": (
        ["[09:30:00] /project/src/a.cc:80: Warning: w", "a"],
        ["[12:00:01] /work/build/src/a.cc:80: Warning: w", "a"],
        None,
    ),
    "a shell prompt": (["$ python repro.py", "a"], ["a"], None),
    "addresses, temporary paths, timings, trailing blanks": (
        ["at 0x7f00aa: /tmp/x1/m.so in 1.50 s  "],
        ["at 0x55ffbb: /tmp/y2/m.so in 0.25 s"],
        None,
    ),
    "anything else, word for word": (["%c.i = call ptr %94"], ["%c.i = call ptr %95"], (0, 0)),
}


@pytest.mark.parametrize("rule", QUOTE_RULES)
def test_quote_rules(rule):
    """A quote is the output line for line, but for elisions, prompts, log lines and NORMALISE"""
    quote, printed, expected = QUOTE_RULES[rule]
    assert quote_mismatch(quote, printed) == expected


def test_a_drifted_line_is_named(tmp_path):
    """A quote that parts from the output fails naming the text's line, the quoted line, the
    printed line and the script that printed it"""
    text = tmp_path / "issue.md"
    text.write_text("Its output:\n\n```text\na\n...\nd (drifted)\n```\n")
    output = [(BUGS / "k" / "repro.py", line) for line in ("a", "b", "d")]
    assert quote_mismatches(text, output) == [
        f"{text}:6: the quote differs from what bugs/k/repro.py printed\n"
        "  quoted:  'd (drifted)'\n"
        "  printed: 'd'"
    ]


def test_quoted_outputs_reads_text_blocks_only():
    """quoted_outputs reads ```text blocks, indented ones too, and no other fenced block"""
    body = "x\n```\nnot output\n```\n- item\n\n  ```text\n  a\n    b\n  ```\n```python\nc\n```\n"
    assert quoted_outputs(body) == [(7, ["a", "  b"])]


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
