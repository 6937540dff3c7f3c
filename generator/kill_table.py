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
"""Which wrong fixes a fixed-seed campaign kills, each in a fork (this repository only).

    python -m generator.kill_table --line tvm|tirx --known FILE --seed N --programs N
                                   [--budget SECONDS] [--markdown] [SPEC ...]

Run it with the interpreter of the line (``.venv/bin/python``; ``.venv-tirx/bin/python`` for
tirx).

The corpus is what ``campaign.py --seed N --programs N`` judges on that line: its sentinels,
then the first N random programs (hypothesis batches seeded as generator/worker.py seeds
them, Relax cases every fourth batch on apache/tvm). For each wrong fix (SPEC "REPORT:NAME";
none: every wrong fix of every report whose reference fix this line installs) a fork installs
it instead of its report's reference fix (the other reference fixes installed) and judges the
corpus in order (clause (c) on the OpenCL device where one is, as the campaign does) until
the first class that FILE's KNOWN does not accept, or ``--budget`` seconds. Prints one JSON
object {SPEC: {"killed": bool, "class": key, "program": index (0 = a sentinel), "judged": n,
"seconds": s}} (``--markdown``: a table per report). What the campaign would say of each
wrong fix, without its minimization and in parallel (generator/wrong_fix_sweep.py does the
same for the sentinels alone).
"""

import argparse
import functools
import json
import os
import runpy
import sys
import time

from generator.wrong_fix_sweep import _campaign, in_forks


def corpus(line, seed_value, programs, relax=True):
    """[(name, case)]: the sentinels, then the campaign's first ``programs`` random cases."""
    from generator import program as P
    from generator import relax_cases as RC
    from generator import sentinels as SN
    from generator import strategies as S
    from generator import worker as W

    cases = [(f"sentinel {name}", case) for name, _report, case in SN.for_line(line)]
    batch, drawn = 0, []
    while len(drawn) < programs:
        if relax and line == "tvm" and batch % 4 == 3:
            strategy, size = RC.relax_cases(), W.RELAX_BATCH
        else:
            strategy, size = S.programs(line, P.TARGETS), W.BATCH

        S.draw_batch(
            strategy,
            seed_value,
            batch,
            size,
            lambda case: drawn.append(case) if len(drawn) < programs else None,
        )
        batch += 1
    return cases + [(f"program {i + 1}", c) for i, c in enumerate(drawn)]


def judge_under(line, spec, cases, known, known_reason, budget):
    """``cases`` judged under the wrong fix ``spec`` (None: the reference fixes alone) until
    the first class known.py does not accept or ``budget`` seconds: {killed, class, case,
    judged, seconds}."""
    from generator import device
    from generator import program as P
    from generator import worker as W
    from generator.oracle import Oracle
    from generator.rejudge_crash import Placed

    report = spec.split(":")[0] if spec else None
    installed = W.install_fixes(True, spec)
    if report in installed:
        raise SystemExit(f"{spec}: its report's reference fix is still installed")
    launchable = P.LAUNCHABLE + (("uint64",) if "uint64_scalar" in installed else ())
    oracle = Oracle(line, launchable=launchable)
    oracle.device_reason = device.available(line)
    placed = Placed(oracle, line)
    start = time.monotonic()
    judged = 0
    for index, (name, case) in enumerate(cases):
        if time.monotonic() - start > budget:
            break
        judged += 1
        # each case in a fork: a case that kills it (a segfault in TVM) is the class
        # d:crash:<where>:signal-N the campaign gives it, and later cases are still judged
        died, where, keys = placed.judge(case)
        for key in [f"d:crash:{where}:signal-{died}"] if died else keys:
            if known_reason(key, known, line) is None:
                return {
                    "killed": True,
                    "class": key,
                    "case": name,
                    "judged": judged,
                    "seconds": round(time.monotonic() - start, 1),
                }
    return {"killed": False, "judged": judged, "seconds": round(time.monotonic() - start, 1)}


def specs_for(line):
    from harness import reference_fixes, wrong_fixes

    have = set(reference_fixes.available())
    return [f"{r}:{n}" for (r, n) in wrong_fixes.catalogue() if r in have]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--line", choices=("tvm", "tirx"), required=True)
    parser.add_argument("--known", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--programs", type=int, default=60)
    parser.add_argument("--budget", type=float, default=240.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--markdown", action="store_true", help="print a table per report instead of the JSON"
    )
    parser.add_argument("specs", nargs="*")
    args = parser.parse_args(argv)
    module = "tvm" if args.line == "tvm" else "tvm_tirx"
    try:
        __import__(module)
    except ImportError:
        print(
            f"kill_table: --line {args.line} needs {module} in this interpreter ({sys.executable})",
            file=sys.stderr,
        )
        return 2
    known = runpy.run_path(args.known)["KNOWN"]
    known_reason = _campaign().known_reason
    from generator import oracle  # noqa: F401  (imported once, for every fork)

    cases = corpus(args.line, args.seed, args.programs)
    specs = args.specs or specs_for(args.line)
    results = judge_all(args.line, specs, cases, known, known_reason, args.budget, args.jobs)
    print(markdown(results) if args.markdown else json.dumps(results))
    return 0


def judge_all(line, specs, cases, known, known_reason, budget, jobs=1, progress=True):
    """{spec: judge_under's result} for each of ``specs`` ("REPORT:NAME", or None for the
    reference fixes alone), each in a fork of its own, ``jobs`` at a time."""

    def done(spec, found):
        print(json.dumps({"done": spec, **found}), file=sys.stderr, flush=True)

    work = functools.partial(
        judge_under, line, cases=cases, known=known, known_reason=known_reason, budget=budget
    )
    return in_forks(specs, work, jobs, done if progress else None)


def markdown(results):
    """A table of ``results``: per report, how many of its wrong fixes the corpus kills, the
    survivors named."""
    reports = {}
    for spec, found in results.items():
        reports.setdefault(spec.split(":")[0], []).append((spec.split(":", 1)[1], found))
    rows = ["| report | killed | survivors |", "|---|---|---|"]
    total = killed = 0
    for report, fixes in reports.items():
        dead = [n for n, f in fixes if f.get("killed")]
        alive = [n for n, f in fixes if not f.get("killed")]
        total, killed = total + len(fixes), killed + len(dead)
        rows.append(f"| {report} | {len(dead)} of {len(fixes)} | {', '.join(alive) or '-'} |")
    rows.append(f"| all | {killed} of {total} | |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
