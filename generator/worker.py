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
"""One campaign on one TVM line, run in a child process of that line's interpreter.

    python -m generator.worker --line tvm|tirx --seed N --budget SECONDS [--programs N]
                               [--reference-fixes] [--no-relax]

Programs come from hypothesis (generator/strategies.py) in batches, each batch seeded from
``--seed`` and its index, so that a campaign that stops at ``--programs`` is deterministic.
Each program is judged by the oracle; the first program of each new class (its key) is
minimized (``minimize``: greedy removal and simplification on the description, keeping the
key) within a fixed number of oracle calls, which keeps minimization deterministic too.
Progress goes to stderr as JSON lines ``{"progress": ...}``; the result is one JSON object on
the last line of stdout.
"""

import argparse
import contextlib
import dataclasses
import io
import json
import os
import sys
import time

from generator import program as P
from generator import relax_cases as RC
from generator import sentinels as SN
from generator import strategies as S
from generator.oracle import CLAUSES, Oracle, Verdict

BATCH = 10
# a Relax batch: its cases take a tenth of a TIR program's time, and the call graphs need many
RELAX_BATCH = 40
MINIMIZE_CALLS = 30


def _size(program):
    return len(P.render(program, "tvm"))


def _candidates(p):
    """Simpler programs than ``p``, simplest change first."""
    values, kernels, steps = p.values, p.kernels, p.steps
    if p.target != "cuda":
        yield dataclasses.replace(p, target="cuda")
    # drop a value no kernel reads any more
    for i in range(len(values)):
        if len(values) > 1:
            q = _drop_value(p, i)
            if q is not None:
                yield q
    for k in range(len(kernels)):
        if len(kernels) > 1:
            q = _drop_kernel(p, k)
            if q is not None:
                yield q
    for k, kernel in enumerate(kernels):
        for j in range(len(kernel.reads)):
            if len(kernel.reads) > 1:
                reads = kernel.reads[:j] + kernel.reads[j + 1 :]
                ks = (*kernels[:k], dataclasses.replace(kernel, reads=reads), *kernels[k + 1 :])
                yield dataclasses.replace(p, kernels=ks)
        if kernel.writes:
            ks = (*kernels[:k], dataclasses.replace(kernel, writes=()), *kernels[k + 1 :])
            yield dataclasses.replace(p, kernels=ks)
    if p.wrap != "none":
        yield dataclasses.replace(p, wrap="none")
    for q in _simpler_steps(steps):
        if any(isinstance(s, P.Launch) for s in P.iter_steps(q)):
            yield dataclasses.replace(p, steps=q)
    for i, v in enumerate(values):
        for change in (
            {"init": 0},
            {"alias": "direct"},
            {"by_kernel": True} if v.spelling in ("global", "param") else {},
        ):
            if change and any(getattr(v, k) != val for k, val in change.items()):
                w = dataclasses.replace(v, **change)
                yield dataclasses.replace(p, values=(*values[:i], w, *values[i + 1 :]))


def _simpler_steps(steps):
    for i, step in enumerate(steps):
        rest = steps[:i] + steps[i + 1 :]
        yield rest
        if isinstance(step, P.Loop | P.If):
            yield steps[:i] + step.body + steps[i + 1 :]
            for inner in _simpler_steps(step.body):
                new = dataclasses.replace(step, body=inner)
                yield (*steps[:i], new, *steps[i + 1 :])


def _map_steps(steps, fn):
    out = []
    for step in steps:
        if isinstance(step, P.Loop | P.If):
            step = dataclasses.replace(step, body=_map_steps(step.body, fn))
            out.append(step)
            continue
        step = fn(step)
        if step is not None:
            out.append(step)
    return tuple(out)


def _drop_value(p, i):
    if any(i in k.reads or i in k.writes for k in p.kernels):
        return None

    def fix(step):
        if isinstance(step, P.Write | P.HostUse):
            if step.value == i:
                return None
            return dataclasses.replace(step, value=step.value - (step.value > i))
        return step

    kernels = tuple(
        dataclasses.replace(
            k,
            reads=tuple(r - (r > i) for r in k.reads),
            writes=tuple(r - (r > i) for r in k.writes),
        )
        for k in p.kernels
    )
    values = p.values[:i] + p.values[i + 1 :]
    return dataclasses.replace(p, values=values, kernels=kernels, steps=_map_steps(p.steps, fix))


def _drop_kernel(p, k):
    def fix(step):
        if isinstance(step, P.Launch):
            if step.kernel == k:
                return None
            return P.Launch(step.kernel - (step.kernel > k))
        return step

    steps = _map_steps(p.steps, fix)
    if not any(isinstance(s, P.Launch) for s in P.iter_steps(steps)):
        return None
    return dataclasses.replace(p, kernels=p.kernels[:k] + p.kernels[k + 1 :], steps=steps)


def minimize(oracle, program, key, calls=MINIMIZE_CALLS):
    """A smaller program whose verdict still has ``key`` (greedy, at most ``calls`` calls)."""
    best, budget = program, calls
    improved = True
    while improved and budget > 0:
        improved = False
        for cand in _candidates(best):
            if budget <= 0:
                break
            if _size(cand) >= _size(best):
                continue
            budget -= 1
            verdict = _quiet(oracle.judge, cand)
            if any(v[1] == key for v in verdict.violations):
                best, improved = cand, True
                break
    return best


def _quiet(fn, *args):
    """Run ``fn`` with TVM's C++ warnings (written to fd 2) and Python output silenced."""
    with open(os.devnull, "w") as null:
        saved = os.dup(2)
        os.dup2(null.fileno(), 2)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                return fn(*args)
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def run(
    line,
    seed_value,
    budget,
    max_programs,
    reference_fixes,
    relax=True,
    targets=P.TARGETS,
    state_file=None,
    start_at=0,
    carried=None,
    wrong_fix=None,
    sentinels=True,
    use_device=False,
):
    installed = install_fixes(reference_fixes, wrong_fix)
    launchable = P.LAUNCHABLE + (("uint64",) if "uint64_scalar" in installed else ())
    oracle = Oracle(line, launchable=launchable)
    if use_device:
        from generator import device

        oracle.device_reason = device.available(line)
    start = time.monotonic()
    stats = {c: {"tried": 0, "violations": 0} for c in CLAUSES}
    classes = {}
    parse_errors = {}
    oracle_errors = {}
    state = {"programs": 0, "unjudged_c": 0, "unjudged_c_why": {}, "stop": None}
    state.update(sentinels=0, sentinels_done=(carried or {}).get("sentinels_done", 0))
    state["c_by"] = (carried or {}).get("c_by", {})
    if carried:  # what an earlier worker of this campaign found before it crashed
        stats, classes = carried["stats"], carried["classes"]
        parse_errors, oracle_errors = carried["generator_parse_errors"], carried["oracle_errors"]
        state["unjudged_c"] = carried["unjudged_c"]
        state["unjudged_c_why"] = carried.get("unjudged_c_why", {})

    def result():
        return {
            "line": line,
            "version": oracle.L.version,
            "reference_fixes": bool(reference_fixes),
            "wrong_fix": wrong_fix if wrong_fix and wrong_fix.split(":")[0] in installed else None,
            "sentinels": state["sentinels"] + (carried or {}).get("sentinels", 0),
            "sentinels_done": state["sentinels_done"],
            "c_device": oracle.device_reason or "yes",
            "c_by": state["c_by"],
            "seed": seed_value,
            "programs": state["programs"],
            "seconds": round(time.monotonic() - start + (carried or {}).get("seconds", 0), 1),
            "stopped_by": state["stop"],
            "unjudged_c": state["unjudged_c"],
            "unjudged_c_why": state["unjudged_c_why"],
            "stats": stats,
            "classes": classes,
            "generator_parse_errors": parse_errors,
            "oracle_errors": oracle_errors,
        }

    index = {"next": 0}

    def save(current=None):
        if state_file:
            snapshot = result()
            snapshot["current"] = current
            with open(state_file, "w") as f:
                json.dump(snapshot, f)

    def out_of_budget():
        if state["programs"] >= max_programs:
            state["stop"] = state["stop"] or f"{max_programs} programs"
        elif time.monotonic() - start >= budget:
            state["stop"] = state["stop"] or f"budget of {budget:.0f} s"
        return state["stop"] is not None

    def record(verdict, program, text_of, kind, first=None):
        if first is None:
            state["programs"] += 1
        if verdict.parse_error:
            parse_errors.setdefault(verdict.parse_error, text_of(program))
            return
        for clause in verdict.judged:
            stats[clause]["tried"] += 1
        if verdict.c_by:
            state["c_by"][verdict.c_by] = state["c_by"].get(verdict.c_by, 0) + 1
        if "c" in verdict.unjudged:
            state["unjudged_c"] += 1
            why = verdict.unjudged_why or "unknown"
            state["unjudged_c_why"][why] = state["unjudged_c_why"].get(why, 0) + 1
        for clause, key, message in verdict.violations:
            stats[clause]["violations"] += 1
            if key in classes:
                classes[key]["count"] += 1
                continue
            if kind == "tir" and first is None:
                small = _quiet(minimize, oracle, program, key)
            else:
                small = program
            classes[key] = {
                "clause": clause,
                "message": message,
                "count": 1,
                "first_program": first or state["programs"],
                "reproducer": text_of(small),
            }
        print(
            json.dumps(
                {
                    "progress": state["programs"],
                    "classes": len(classes),
                    "elapsed": round(time.monotonic() - start, 1),
                }
            ),
            file=sys.stderr,
            flush=True,
        )

    if sentinels:
        done = (carried or {}).get("sentinels_done", 0)  # judged (or died on) before a restart
        for i, (name, _report, case) in enumerate(SN.for_line(line)):
            if i < done:
                continue
            state["sentinels_done"] = i + 1
            kind = _kind_of(case)
            text_of = _text_of(kind, line)
            save({"index": 0, "kind": kind, "text": text_of(case), "repr": repr(case)})
            try:
                verdict = _quiet(_judge_case, oracle, case, line)
                record(verdict, case, text_of, kind, first=f"sentinel {name}")
                state["sentinels"] += 1
            except Exception as err:
                oracle_errors.setdefault(f"{type(err).__name__}: {err}"[:200], text_of(case))
    batch = 0
    while not out_of_budget():
        if relax and line == "tvm" and batch % 4 == 3:
            strategy, kind = RC.relax_cases(), "relax"
        else:
            strategy, kind = S.programs(line, targets), "tir"

        def one(case):
            if out_of_budget():
                return
            index["next"] += 1
            if index["next"] <= start_at:  # judged (or crashed) in an earlier worker
                state["programs"] += 1
                return
            text_of = _text_of(kind, line)
            save({"index": index["next"], "kind": kind, "text": text_of(case), "repr": repr(case)})
            try:
                verdict = _quiet(_judge_case, oracle, case, line)
                record(verdict, case, text_of, kind)
            except Exception as err:  # the oracle's own failure: counted apart, never a TVM bug
                state["programs"] += 1
                oracle_errors.setdefault(f"{type(err).__name__}: {err}"[:200], text_of(case))

        size = RELAX_BATCH if kind == "relax" else BATCH
        S.draw_batch(strategy, seed_value, batch, size, one)
        batch += 1
    save()
    return result()


def install_fixes(reference_fixes, wrong_fix=None):
    """Install the reference fixes of this line (with ``reference_fixes``), the wrong fix
    ``wrong_fix`` ("REPORT:NAME") instead of its report's reference fix where that report has
    one on this line; return the reports whose reference fix is installed."""
    if not reference_fixes:
        return ()
    from harness import reference_fixes as fixes

    names = list(fixes.available())
    report = wrong_fix.split(":")[0] if wrong_fix else None
    if report in names:
        from harness import wrong_fixes

        names.remove(report)
        fixes.install(names)
        wrong_fixes.install(wrong_fix)
    else:
        fixes.install(names)
    return tuple(names)


def _kind_of(case):
    if isinstance(case, RC.RelaxCase | RC.RelaxGraph):
        return "relax"
    if isinstance(case, SN.PassCase):
        return "pass"
    return "text" if isinstance(case, SN.Text) else "tir"


def _text_of(kind, line):
    if kind == "relax":
        return RC.render
    if kind == "text":
        return lambda case: _pipeline_line(case, line) + case.text(line)
    if kind == "pass":
        return lambda case: f"# {case.pass_name}() alone, after BindTarget\n" + P.render(
            case.program, line
        )
    return lambda program: f"# target: {program.target}\n" + P.render(program, line)


def _pipeline_line(case, line):
    """The comment line that names a Text's TIR pipeline where it is not the default one."""
    if line != "tvm" or case.tir_pipeline == "default":
        return ""
    return f"# tvm.compile(..., tir_pipeline={case.tir_pipeline!r})\n"


def _judge_case(oracle, case, line):
    kind = _kind_of(case)
    if kind == "relax":
        return RC.judge(case, Verdict())
    if kind == "text":
        return oracle.judge_text(
            case.text(line), case.target, case.tir_pipeline, case.invalid, case.export
        )
    if kind == "pass":
        program = case.program
        return oracle.judge_pass(P.render(program, line), program.target, case.pass_name)
    return oracle.judge(case)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--line", choices=("tvm", "tirx"), required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--budget", type=float, required=True)
    parser.add_argument("--programs", type=int, default=10**9)
    parser.add_argument("--reference-fixes", action="store_true")
    parser.add_argument("--no-relax", action="store_true")
    parser.add_argument("--state")
    parser.add_argument("--start-at", type=int, default=0)
    parser.add_argument("--carried")
    parser.add_argument("--wrong-fix")
    parser.add_argument("--no-sentinels", action="store_true")
    parser.add_argument("--device", action="store_true")
    args = parser.parse_args(argv)
    carried = None
    if args.carried:
        with open(args.carried) as f:
            carried = json.load(f)
    result = run(
        args.line,
        args.seed,
        args.budget,
        args.programs,
        args.reference_fixes,
        relax=not args.no_relax,
        state_file=args.state,
        start_at=args.start_at,
        carried=carried,
        wrong_fix=args.wrong_fix,
        sentinels=not args.no_sentinels,
        use_device=args.device,
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
