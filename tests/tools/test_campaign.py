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
"""The campaign command (scripts/campaign.py) and the oracle clauses, on small fixed inputs."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CAMPAIGN = [sys.executable, str(ROOT / "scripts" / "campaign.py")]


def _run(*args):
    return subprocess.run([*CAMPAIGN, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.mark.parametrize(
    "args",
    [
        ["--seed", "x", "--budget", "1m"],
        ["--seed", "1", "--budget", "soon"],
        ["--seed", "1", "--line", "tvm", "--python", "/no/such/python"],
        ["--seed", "1", "--line", "tvm", "--report", "/no/such/dir/report.md"],
        ["--seed", "1", "--line", "neither"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    proc = _run(*args)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith("campaign: error: ")


def test_tiny_campaign_is_deterministic(tmp_path):
    reports = []
    for i in range(2):
        path = tmp_path / f"r{i}.md"
        proc = _run(
            "--seed",
            "3",
            "--budget",
            "2m",
            "--programs",
            "3",
            "--line",
            "tvm",
            "--no-relax",
            "--report",
            str(path),
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        text = path.read_text()
        # drop the timing sentence, keep everything else
        reports.append([ln for ln in text.splitlines() if " per minute)" not in ln])
    assert reports[0] == reports[1]


def _judge(program, line="tvm"):
    code = (
        "import json, sys; sys.path.insert(0, %r)\n"
        "from generator import program as P\n"
        "from generator.oracle import Oracle\n"
        "from generator.worker import _quiet\n"
        "v = _quiet(Oracle(%r).judge, eval(%r, vars(P)))\n"
        "print(json.dumps(sorted(x[1] for x in v.violations)))\n"
    ) % (str(ROOT), line, program)
    python = ROOT / (".venv/bin/python" if line == "tvm" else ".venv-tirx/bin/python")
    proc = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


GOOD = 'Program("cuda", (Value("float32", "let", 1),), (Kernel((0,)),), (Launch(0),))'
CASES = {
    "a": 'Program("cuda", (Value("float32", "cell", 1),), (Kernel((0,)),), (Launch(0),))',
    "b": 'Program("cuda", (Value("uint64", "arg", 1),), (Kernel((0,)),), (Launch(0),))',
    "d": 'Program("cuda", (Value("float32", "param", 1),), (Kernel((0,)),), (Launch(0),))',
}


def test_each_clause_flags_its_bad_case_and_passes_the_good_one():
    good = {k.split(":")[0] for k in _judge(GOOD)}
    assert not good & {"a", "b", "c", "d"}
    for clause, program in CASES.items():
        keys = _judge(program)
        assert any(k.startswith(clause + ":") for k in keys), (clause, keys)
    # (e) and (f): SplitHostDevice changes its input on the released wheel, and the printer
    # writes `X.source.data` after FlattenBuffer
    keys = _judge(GOOD)
    assert "e:tirx.SplitHostDevice:input-changed" in keys
    assert any(k.startswith("f:") for k in keys)


def test_replay_sees_the_value_the_host_holds():
    """(c): reassigned cell read by two launches: a correct pipeline gives no (c) violation,
    a wrong expectation does."""
    from generator import program as P

    prog = P.Program(
        "cuda",
        (P.Value("float32", "cell", 1),),
        (P.Kernel((0,)),),
        (P.Launch(0), P.Write(0, 3), P.Launch(0)),
    )
    assert [float(v[0]) for _, v in P.expected_launches(prog)] == [3.0, 5.0]
    assert not [k for k in _judge(repr(prog)) if k.startswith("c:")]


def test_relax_case_flags_the_report_and_not_the_control():
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from generator import relax_cases as RC\n"
        "from generator.oracle import Verdict\n"
        "print([v[1] for v in RC.judge(RC.RelaxCase(), Verdict()).violations])\n"
        "print([v[1] for v in RC.judge(RC.RelaxCase(workspace=0), Verdict()).violations])\n"
    ) % str(ROOT)
    proc = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-c", code], capture_output=True, text=True, timeout=300
    )
    bad, good = proc.stdout.strip().splitlines()[-2:]
    assert "g:relax.AllocateWorkspace:ill-formed" in bad
    assert good == "[]"
