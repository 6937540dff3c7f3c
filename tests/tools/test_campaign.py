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
import os
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


def test_tiny_campaign_is_deterministic(children):
    reports = []
    for name in ("campaign 1", "campaign 2"):
        proc, text = children[name].result()
        assert proc.returncode == 0, proc.stderr[-2000:]
        # drop the timing sentence, keep everything else
        reports.append([ln for ln in text.splitlines() if " per minute)" not in ln])
    assert reports[0] == reports[1]


def _released_env():
    """The environment of a child of .venv's interpreter, which imports the pinned wheel as
    released: no reference fix or wrong fix reaches it (the root conftest passes them to child
    processes), nor the path of another TVM that this run may test (a source build's
    PYTHONPATH and TVM_LIBRARY_PATH: that TVM in the wheel's virtualenv crashes)."""
    drop = ("TVM_REFERENCE_FIXES", "TVM_WRONG_FIX", "PYTHONPATH", "TVM_LIBRARY_PATH")
    return {k: v for k, v in os.environ.items() if k not in drop}


GOOD = 'Program("cuda", (Value("float32", "let", 1),), (Kernel((0,)),), (Launch(0),))'
CASES = {
    "a": 'Program("cuda", (Value("float32", "cell", 1),), (Kernel((0,)),), (Launch(0),))',
    "b": 'Program("cuda", (Value("uint64", "arg", 1),), (Kernel((0,)),), (Launch(0),))',
    "d": 'Program("cuda", (Value("float32", "param", 1),), (Kernel((0,)),), (Launch(0),))',
}


def _replay_program():
    """(c): a reassigned cell read by two launches."""
    from generator import program as P

    return P.Program(
        "cuda",
        (P.Value("float32", "cell", 1),),
        (P.Kernel((0,)),),
        (P.Launch(0), P.Write(0, 3), P.Launch(0)),
    )


def _judge(programs):
    """The violation keys of each of ``programs`` ({name: repr}), and of the Relax case
    ("relax") and its control without a workspace ("relax-control"), judged in one child of
    the released TVM (one ``import tvm`` for every test that reads them)."""
    code = (
        "import json, sys; sys.path.insert(0, %r)\n"
        "from generator import program as P\n"
        "from generator import relax_cases as RC\n"
        "from generator.oracle import Oracle, Verdict\n"
        "from generator.worker import _quiet\n"
        "oracle = Oracle('tvm')\n"
        "keys = {name: sorted(x[1] for x in _quiet(oracle.judge, eval(p, vars(P))).violations)\n"
        "        for name, p in %r.items()}\n"
        "keys['relax'] = [v[1] for v in RC.judge(RC.RelaxCase(), Verdict()).violations]\n"
        "keys['relax-control'] = [\n"
        "    v[1] for v in RC.judge(RC.RelaxCase(workspace=0), Verdict()).violations\n"
        "]\n"
        "print(json.dumps(keys))\n"
    ) % (str(ROOT), programs)
    proc = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        env=_released_env(),
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _campaign(report, *args):
    """A campaign run that writes its report to ``report``: (process, report text)."""
    proc = _run(*args, "--report", str(report))
    return proc, report.read_text() if proc.returncode == 0 else ""


# the children each test reads
READS = {
    "test_tiny_campaign_is_deterministic": ["campaign 1", "campaign 2"],
    "test_each_clause_flags_its_bad_case_and_passes_the_good_one": ["judged"],
    "test_replay_sees_the_value_the_host_holds": ["judged"],
    "test_relax_case_flags_the_report_and_not_the_control": ["judged"],
}


def start_children(pool, tests, tmp_path_factory):
    """The children in READS that ``tests`` read, started in ``pool`` (tests/tools/conftest.py):
    two runs of one tiny campaign (a worker process each), and the judging child."""
    wanted = {child for test in tests for child in READS.get(test, ())}
    tiny = ["--seed", "3", "--budget", "2m", "--programs", "3", "--line", "tvm", "--no-relax"]
    futures = {}
    for name in ("campaign 1", "campaign 2"):
        if name in wanted:
            report = tmp_path_factory.mktemp("campaign") / "report.md"
            futures[name] = pool.submit(_campaign, report, *tiny)
    if "judged" in wanted:
        programs = {"good": GOOD, **CASES, "replay": repr(_replay_program())}
        futures["judged"] = pool.submit(_judge, programs)
    return futures


@pytest.fixture(scope="module")
def judged(children):
    return children["judged"].result()


def test_each_clause_flags_its_bad_case_and_passes_the_good_one(judged):
    good = judged["good"]
    assert not {k.split(":")[0] for k in good} & {"a", "b", "c", "d"}
    for clause in CASES:
        keys = judged[clause]
        assert any(k.startswith(clause + ":") for k in keys), (clause, keys)
    # (e) and (f): SplitHostDevice changes its input on the released wheel, and the printer
    # writes `X.source.data` after FlattenBuffer
    assert "e:tirx.SplitHostDevice:input-changed" in good
    assert any(k.startswith("f:") for k in good)


def test_replay_sees_the_value_the_host_holds(judged):
    """(c): reassigned cell read by two launches: a correct pipeline gives no (c) violation,
    a wrong expectation does."""
    from generator import program as P

    prog = _replay_program()
    assert [float(v[0]) for _, v in P.expected_launches(prog)] == [3.0, 5.0]
    assert not [k for k in judged["replay"] if k.startswith("c:")]


def test_relax_case_flags_the_report_and_not_the_control(judged):
    assert any("g:relax.AllocateWorkspace:ill-formed" in k for k in judged["relax"])
    assert judged["relax-control"] == []


def test_known_entries_match_with_a_wildcard_anywhere():
    sys.path.insert(0, str(ROOT / "scripts"))
    import campaign

    known = {"d:v:Cannot convert type float* to Metal type*": "metal", "e:exact": "exact"}
    assert campaign.known_reason("d:v:Cannot convert type floatN to Metal type", known) == "metal"
    assert campaign.known_reason("e:exact", known) == "exact"
    assert campaign.known_reason("e:exactly", known) is None
    assert campaign.known_reason("d:v:Cannot convert type int to Vulkan type", known) is None
