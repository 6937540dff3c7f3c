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
"""The blind rounds' demos (bugs/<key>/demos*.py): each names a wrong fix that exists, every wrong
fix of a blind round has one, and scripts/blind_demos.py runs one and refuses bad input."""

import subprocess
import sys
from pathlib import Path

import pytest

from bug_reports import present
from harness import blind_demo, wrong_fixes

ROOT = Path(__file__).resolve().parents[2]
REPORTS = sorted(p.parent.name for p in ROOT.glob("bugs/*/reference_fix.py"))
ROUNDS = sorted({p.parent.name for p in ROOT.glob("bugs/*/wrong_fixes_*.py")})
COMMAND = [sys.executable, str(ROOT / "scripts" / "blind_demos.py")]
# the demo the command runs: a quick one, of a report still here (a retired one's folder is gone)
DEMO_BUG, DEMO = present(
    (
        ("vthread_dynamic_extent", "blind3-pre-order"),
        ("reinterpret_of_constant", "blind3-stores-only"),
    )
)[0]


def start_children(pool, tests, tmp_path_factory):
    run = {  # child: (the test that reads it, the command's arguments)
        "demo": ("test_a_demo_runs", ["--only", f"{DEMO_BUG}:{DEMO}"]),
        "bug": ("test_bad_input_is_one_line", ["--bug", "no_such_bug"]),
        "name": ("test_bad_input_is_one_line", ["--only", f"{DEMO_BUG}:no-such-fix"]),
    }
    return {
        child: pool.submit(subprocess.run, COMMAND + args, capture_output=True, text=True, cwd=ROOT)
        for child, (test, args) in run.items()
        if test in tests
    }


@pytest.mark.parametrize("report", REPORTS)
def test_every_demo_names_a_wrong_fix(report):
    """A demo's key is the name of one of its bug's wrong fixes."""
    known = {name for key, name in wrong_fixes.catalogue() if key == report}
    shown = blind_demo.declared(report, "tvm") + blind_demo.declared(report, "tvm_tirx")
    assert sorted(set(shown) - known) == []


@pytest.mark.parametrize("report", ROUNDS)
def test_every_blind_wrong_fix_has_a_demo(report):
    """Each wrong fix of a blind round (round 2 on) has a demo on a TVM line."""
    shown = set(blind_demo.declared(report, "tvm") + blind_demo.declared(report, "tvm_tirx"))
    rounds = wrong_fixes.rounds(report)
    blind = {name for number, names in rounds.items() if number > 1 for name in names}
    assert sorted(blind - shown) == []


@pytest.mark.parametrize("report", REPORTS)
def test_declared_names_are_the_demos(report):
    """What ``declared`` reads from the sources is this line's DEMOS, in its order."""
    from harness.tvm_line import LINE

    assert blind_demo.declared(report, LINE) == list(blind_demo.demos_of(report, LINE))


def test_a_demo_runs(children):
    """A demo runs its program under both fixes and says that they differ."""
    proc = children["demo"].result()
    assert proc.returncode == 0, proc.stderr
    assert f"{DEMO}  DIFFERENT" in proc.stdout


@pytest.mark.parametrize("which", ["bug", "name"])
def test_bad_input_is_one_line(children, which):
    """An unknown bug or demo: one line on stderr, exit 2, nothing run."""
    proc = children[which].result()
    assert (proc.returncode, proc.stdout, len(proc.stderr.splitlines())) == (2, "", 1)
