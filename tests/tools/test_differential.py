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
"""The differential run (generator/differential.py): its verdicts on made-up records, and what
it decides for the report's host cell on the wheel, with and without the reference fixes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator import differential as D  # noqa: E402

CELL = """@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        c: T.float32 = T.float32(2.0)
        for t in T.thread_binding(8, thread="threadIdx.x"):
            A[t] = c
"""


def _sides(wheel, fixed_w, base, fixed_b):
    return {
        "wheel": {"x": {"d": wheel}},
        "wheel+fixes": {"x": {"d": fixed_w}},
        "base": {"x": {"d": base}},
        "patched": {"x": {"d": fixed_b}},
    }


@pytest.mark.parametrize(
    "values, verdict",
    [
        # the fixed sides agree
        (("a", "b", "a", "b"), None),
        # the base and the wheel differ already, the fixes change the decision on both
        (("a", "b", "c", "d"), "explained"),
        # ... and on neither
        (("a", "a", "c", "c"), "explained"),
        # the same released decision, fixed differently
        (("a", "b", "a", "c"), "disagreement"),
        # the base and the wheel differ, only one fix changes the decision
        (("a", "b", "c", "c"), "disagreement"),
        # a stand-in that declines to print is not a decision
        (("a", "cannot-print", "a", "same"), None),
    ],
)
def test_compare_verdicts(values, verdict):
    """A difference of the fixed sides is explained only by the same effect on a different base."""
    rows, counts = D.compare(_sides(*values))
    assert [row[3] for row in rows] == ([verdict] if verdict else [])
    assert counts["decisions"] == 1


def test_record_sees_the_host_cell_fix(tmp_path):
    """The report's host cell is a device workspace on the wheel and a host one under its fix."""
    case = {"id": "cell", "kind": "tir", "text": CELL, "target": "cuda", "families": ["t"]}
    (tmp_path / "corpus.jsonl").write_text(json.dumps(case) + "\n")
    for side in ("wheel", "wheel+fixes"):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "generator.differential",
                "record",
                str(tmp_path),
                "--side",
                side,
            ],
            cwd=ROOT,
            check=True,
            capture_output=True,
            timeout=300,
        )
    wheel = D.load(tmp_path / "wheel.jsonl")["cell"]
    fixed = D.load(tmp_path / "wheel+fixes.jsonl")["cell"]
    # device type 2 (CUDA) on the wheel, 1 (the CPU) under the fix
    assert (wheel["host-workspaces"], fixed["host-workspaces"]) == (["2:4"], ["1:4"])
    assert fixed["kernels"] == ["ptr,float32"]


def test_bad_directory_is_one_line_and_exit_2(tmp_path):
    """A missing directory or corpus is one line on stderr and exit code 2."""
    for args in (["compare", str(tmp_path / "none")], ["record", str(tmp_path), "--side", "base"]):
        run = subprocess.run(
            [sys.executable, "-m", "generator.differential", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
