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

from generator import sentinels

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


# (c) on vector values: a float32x4 T.let and an int32x4 one reassigned between launches
VECTORS = {
    "vector-let": 'Program("cuda", (Value("float32x4", "let", 1),), (Kernel((0,)),), (Launch(0),))',
    "vector-assign": 'Program("cuda", (Value("int32x4", "assign", 1),), (Kernel((0,)),), '
    "(Launch(0), Write(0, 3), Launch(0)))",
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


# (f) at the time a pass ran: pass "first" returns a module of its own, pass "later" adds a
# function to the module it is given, in place (as SplitHostDevice does). The round trip of
# "first"'s output must see its one function, though the module holds two once "later" ran.
_TIMING = """
import tvm
seen, made = [], []
oracle.roundtrip_one = lambda name, m, *rest: seen.append([name, len(m.functions)])

def first(mod, ctx):
    made.append(tvm.IRModule(dict(mod.functions_items())))
    return made[-1]

def later(mod, ctx):
    mod.update_func(tvm.ir.GlobalVar("extra"), mod["main"])
    return mod

passes = [tvm.transform.module_pass(f, opt_level=0, name=f.__name__) for f in (first, later)]
start = tvm.IRModule({"main": tvm.tirx.PrimFunc([], tvm.tirx.Evaluate(0))})
oracle._compile(start, None, Verdict(), run=lambda m: passes[1](passes[0](m)))
keys["timing"] = [seen, len(made[0].functions)]
"""


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
        "%s\n"
        "print(json.dumps(keys))\n"
    ) % (str(ROOT), programs, _TIMING)
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
    """A campaign run that writes its report to ``report``: (process, report text); clause (c)
    by the replay (the device's own test is generator/device.py's)."""
    proc = _run(*args, "--no-device", "--report", str(report))
    return proc, report.read_text() if proc.returncode == 0 else ""


# one wrong fix per report with a reference fix (generator/sentinels.py: CAUGHT)
WRONG_FIX_PER_REPORT = sentinels.CAUGHT


def _sweep(specs):
    """{spec: [classes known.py does not accept]} of the sentinels under each of ``specs``
    (generator/wrong_fix_sweep.py: one child, a fork per spec)."""
    proc = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-m", "generator.wrong_fix_sweep", "--line", "tvm",
         "--known", str(ROOT / "generator" / "known.py"), *specs],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
        env={**_released_env(), "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


# a program of each module-level dimension and rule (generator/README.md), and a wrong fix
# it kills (its class is one known.py does not accept) where the reference fixes give only
# known classes
NEW_DIMENSIONS = {
    # swarm pools: two narrow scalars of one launch
    "narrow_scalar:first-param-only": 'Program("cuda", (Value("int8", "arg", 1), '
    'Value("int16", "arg", 2)), (Kernel((0, 1)),), (Launch(0),))',
    # a kernel that stores into the host cell it reads
    "host_scalar:first-kernel-use-decides": 'Program("cuda", (Value("float32", "cell", 1),), '
    "(Kernel((0,), writes=(0,)),), (Launch(0),))",
    # the host hands the address of a buffer only kernels use to a host function
    "host_scalar:calls-are-not-host-uses": 'Program("cuda", (Value("float32", "shared", 1, '
    "True),), (Kernel((0,)),), (HostUse(0, True), Launch(0)))",
    # a host load of device memory
    "verify_memory:stores-only": 'Program("cuda", (Value("float32", "param", 1, True),), '
    "(Kernel((0,)),), (HostUse(0), Launch(0)))",
    # two host stores into device memory: the rejection names both
    "verify_memory:first-error-only": 'Program("cuda", (Value("float32", "global", 1), '
    'Value("int32", "param", 1)), (Kernel((0, 1)),), (Launch(0),))',
    # a host store through a view at pointer arithmetic on pointer arithmetic
    "verify_memory:pointer-arithmetic-one-level": 'Program("cuda", (Value("float32", "param", '
    '1, False, "byte_offset"),), (Kernel((0,)),), (Launch(0),))',
    # host memory on the CPU's device 0
    "host_scalar:s3-enclosing-device-id": 'Program("cuda", (Value("float32", "cell", 1),), '
    "(Kernel((0,)),), (Launch(0),))",
}


def _kills(cases):
    """{spec: [killed under spec, killed under the reference fixes alone]} of each program of
    ``cases`` (generator/kill_table.py's judge_all: a fork per fix, in one child)."""
    code = (
        "import json, runpy, sys; sys.path.insert(0, %r)\n"
        "from generator import kill_table as K\n"
        "from generator import program as P\n"
        "from generator.wrong_fix_sweep import _campaign\n"
        "known = runpy.run_path(%r)['KNOWN']\n"
        "out = {}\n"
        "for spec, text in %r.items():\n"
        "    r = K.judge_all('tvm', [spec, None], [('p', eval(text, vars(P)))], known,\n"
        "                    _campaign().known_reason, 120, jobs=2, progress=False)\n"
        "    out[spec] = [r[spec].get('killed'), r[None].get('killed')]\n"
        "print(json.dumps(out))\n"
    ) % (str(ROOT), str(ROOT / "generator" / "known.py"), cases)
    proc = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-c", code],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env=_released_env(),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


# the children each test reads
READS = {
    "test_tiny_campaign_is_deterministic": ["campaign 1", "campaign 2"],
    "test_each_clause_flags_its_bad_case_and_passes_the_good_one": ["judged"],
    "test_replay_sees_the_value_the_host_holds": ["judged"],
    "test_relax_case_flags_the_report_and_not_the_control": ["judged"],
    "test_vector_cells_are_replayed_lane_by_lane": ["judged"],
    "test_roundtrip_sees_a_pass_output_as_it_was_when_the_pass_ran": ["judged"],
    "test_a_wrong_fix_of_each_report_fails_the_campaign": ["sweep"],
    "test_each_new_dimension_kills_its_wrong_fix_not_the_reference_fix": ["kills"],
}


def start_children(pool, tests, tmp_path_factory):
    """The children in READS that ``tests`` read, started in ``pool`` (tests/tools/conftest.py):
    two runs of one tiny campaign (a worker process each), and the judging child."""
    wanted = {child for test in tests for child in READS.get(test, ())}
    tiny = ["--seed", "3", "--budget", "2m", "--programs", "3", "--line", "tvm", "--no-relax",
            "--no-sentinels", "--no-device"]  # fmt: skip
    futures = {}
    for name in ("campaign 1", "campaign 2"):
        if name in wanted:
            report = tmp_path_factory.mktemp("campaign") / "report.md"
            futures[name] = pool.submit(_campaign, report, *tiny)
    if "judged" in wanted:
        programs = {"good": GOOD, **CASES, "replay": repr(_replay_program()), **VECTORS}
        futures["judged"] = pool.submit(_judge, programs)
    if "sweep" in wanted:
        specs = [f"{r}:{n}" for r, n in WRONG_FIX_PER_REPORT.items()]
        futures["sweep"] = pool.submit(_sweep, specs)
    if "kills" in wanted:
        futures["kills"] = pool.submit(_kills, NEW_DIMENSIONS)
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
    # an entry for one line only
    known = {"[tirx] b:kernel-scalar-uint64": "tirx only"}
    assert campaign.known_reason("b:kernel-scalar-uint64", known, "tirx") == "tirx only"
    assert campaign.known_reason("b:kernel-scalar-uint64", known, "tvm") is None


def test_vector_cells_are_replayed_lane_by_lane(judged):
    """(c) reads every lane of a vector value: a correct pipeline gives no (c) violation (a
    replay that reads one lane of a float32x4 reports "wrong values")."""
    for name in VECTORS:
        assert not [k for k in judged[name] if k.startswith("c:")], (name, judged[name])


def test_replay_reads_and_writes_every_lane():
    import ctypes

    import numpy as np

    from generator import replay

    buf = (ctypes.c_float * 8)(*range(8))
    addr = ctypes.addressof(buf)
    assert replay._read(addr, "float32x4", 1, 1).tolist() == [4.0, 5.0, 6.0, 7.0]
    assert replay._read(addr, "float32", 1, 2).tolist() == [1.0, 2.0]
    replay._write(addr, "float32x4", 0, np.arange(10, 14))
    assert list(buf)[:5] == [10.0, 11.0, 12.0, 13.0, 4.0]


def test_a_wrong_fix_of_each_report_fails_the_campaign(children):
    """With one wrong fix of each report installed instead of its reference fix, the
    sentinels of that report give a class known.py does not accept (the CI campaign judges
    the sentinels first, so it fails; that they give none under the reference fixes is the
    CI campaign's own verdict)."""
    found = children["sweep"].result()
    assert set(found) == {f"{r}:{n}" for r, n in WRONG_FIX_PER_REPORT.items()}
    survivors = [spec for spec, new in found.items() if not new]
    assert survivors == [], found


def test_each_new_dimension_kills_its_wrong_fix_not_the_reference_fix(children):
    """A program of each module-level generator dimension gives a class known.py does not
    accept under its wrong fix, and none under the reference fixes."""
    found = children["kills"].result()
    assert found == {spec: [True, False] for spec in NEW_DIMENSIONS}, found


def test_every_report_with_a_reference_fix_has_a_sentinel_and_a_wrong_fix_here():
    from bug_reports import REFERENCE_FIXED
    from harness import wrong_fixes

    assert set(WRONG_FIX_PER_REPORT) == set(REFERENCE_FIXED)
    assert {report for report, _, _ in sentinels.SENTINELS.values()} == set(REFERENCE_FIXED)
    for report, name in WRONG_FIX_PER_REPORT.items():
        assert name in wrong_fixes.rounds(report)[1], (report, name)


@pytest.mark.parametrize(
    "args",
    [
        ["--wrong-fix", "host_scalar:pass-zero"],
        ["--wrong-fix", "host_scalar:no-such-fix", "--reference-fixes"],
        ["--wrong-fix", "nonsense", "--reference-fixes"],
    ],
)
def test_bad_wrong_fix_is_one_line_and_exit_2(args):
    proc = _run("--seed", "1", "--line", "tvm", *args)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith("campaign: error: --wrong-fix")


def _known():
    import runpy

    return runpy.run_path(str(ROOT / "generator" / "known.py"))["KNOWN"]


def test_every_known_entry_names_one_class():
    """An entry is one class: its clause, its kind and the pass, with no ``*`` before the
    message (no entry spans a clause, a kind of (d) or every pass); its reason names a report
    or says "open:" with the cause and a reproducer of generator/open/ that exists, or
    "design:" (a fix's rule as designed) with the cause and its script in a report's folder."""
    import re

    from bug_reports import BUG_REPORTS

    for entry, reason in _known().items():
        key = entry.partition("] ")[2] if entry.startswith("[") else entry
        parts = key.split(":")
        assert parts[0] in "abcdefg" and len(parts[0]) == 1, entry
        head = parts[:3] if parts[0] in "df" else parts[:2]
        assert all(p and "*" not in p for p in head), entry
        m = re.match(
            r"report (\w+)|open: .*?(generator/open/\S+\.py)|design: .*?(bugs/(\w+)/\S+\.py)",
            reason,
        )
        assert m, (entry, reason)
        if m.group(1):
            assert m.group(1) in BUG_REPORTS, (entry, reason)
        else:
            assert (ROOT / (m.group(2) or m.group(3))).is_file(), (entry, reason)
            assert m.group(4) is None or m.group(4) in BUG_REPORTS, (entry, reason)


def test_no_known_entry_accepts_a_bug_that_a_reference_fix_fixes():
    """Under --reference-fixes a report's class is known only where that report has no
    reference fix: bfloat16_scalar anywhere, a report without a tvm-tirx fix on tvm-tirx."""
    import re

    from bug_reports import NO_REFERENCE_FIX
    from harness import reference_fixes

    for entry, reason in _known().items():
        m = re.match(r"report (\w+)", reason)
        if not m or m.group(1) in NO_REFERENCE_FIX:
            continue
        assert entry.startswith("[tirx] "), (entry, reason)
        assert m.group(1) not in reference_fixes.ON_TVM_TIRX, (entry, reason)


def test_a_crash_is_placed_at_the_pass_it_happens_in():
    """generator/rejudge_crash.py: a judgement that dies by a signal is reported with the signal and
    the pass that was running (a fork of this process; no TVM needed)."""
    import signal

    from generator import rejudge_crash as crash

    class Dies:
        on_event = None

        def judge(self, case):
            self.on_event("+ sequential")
            self.on_event("+ tirx.SplitHostDevice")
            self.on_event("- tirx.SplitHostDevice")
            self.on_event("+ tirx.MakePackedAPI")
            os.kill(os.getpid(), signal.SIGSEGV)

    class Lives(Dies):
        def judge(self, case):
            self.on_event("+ tirx.MakePackedAPI")
            self.on_event("- tirx.MakePackedAPI")

    from generator import program as P

    case = P.Program("cuda", (P.Value("float32", "arg", 1),), (P.Kernel((0,)),), (P.Launch(0),))
    assert crash.Placed(Dies(), "tvm").run(case) == (signal.SIGSEGV, "tirx.MakePackedAPI")
    assert crash.Placed(Lives(), "tvm").run(case) == (0, "codegen")
    assert crash._where(["+ tirx.A", "roundtrip tirx.A"]) == "roundtrip:tirx.A"
    assert crash._where(["+ tirx.A", "- tirx.A", "replay"]) == "replay"


def test_roundtrip_sees_a_pass_output_as_it_was_when_the_pass_ran(judged):
    """(f) prints each pass's output in run_after_pass: a later pass that changes its input in
    place (here: adds a function) does not change what was judged."""
    seen, functions_at_the_end = judged["timing"]
    assert seen == [["first", 1]]  # "later" returns its input: no output of its own
    assert functions_at_the_end == 2
