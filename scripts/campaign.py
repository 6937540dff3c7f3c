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
"""Run a generator campaign on one or both TVM lines and write its Markdown report.

    scripts/campaign.py --seed 1 --budget 10m [--line tvm|tirx|both] [--reference-fixes]
                        [--report PATH] [--python PY] [--programs N] [--known FILE]
                        [--no-relax] [--wrong-fix REPORT:NAME] [--no-sentinels] [--no-device]

Each line runs in a child process of its interpreter (.venv/bin/python for tvm,
.venv-tirx/bin/python for tirx; --python overrides, for one line). Progress on stderr; the
report (Markdown: per oracle clause and per TVM line, programs tried, violations, distinct
classes, each class with its minimal reproducer) goes to --report (default: stdout).
With --known FILE (a Python file defining KNOWN = {key: reason}), exit 1 when a class not in
it is found. The fixed programs of generator/sentinels.py (one or more per report) are judged
first (--no-sentinels: not); --wrong-fix REPORT:NAME (with --reference-fixes) installs that
wrong fix (bugs/<key>/wrong_fixes.toml) instead of its report's reference fix, on the lines
where that report has one. A worker that dies (a signal) is restarted after the program it died on,
which is judged again alone in a fresh process and minimized (generator/rejudge_crash.py). The
report and stderr give clause (c)'s unjudged share. Clause (c) launches each valid program on
the OpenCL device where TVM's OpenCL runtime loads (pocl; generator/device.py) and compares with
the generator's numpy model, the CPU replay judging the rest and every program where there is
no device (about 1 s a program on pocl here); --no-device: the replay only. Bad input (a budget or
seed that is not a number, an interpreter that does not exist, a report path that cannot be
written, a wrong fix that does not exist): one line on stderr, exit 2.
"""

import argparse
import json
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = {"tvm": ROOT / ".venv" / "bin" / "python", "tirx": ROOT / ".venv-tirx" / "bin" / "python"}
CLAUSES = {
    "a": "host never touches device memory",
    "b": "kernel scalars launchable",
    "c": "launch receives the host's value",
    "d": "valid compiles, invalid rejected with a message",
    "e": "no pass changes its input",
    "f": "print -> parse is the identity",
    "g": "Relax stays well formed",
}


class BadInput(Exception):
    pass


def budget_seconds(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([smh]?)", text.strip())
    if not m:
        raise BadInput(
            f"--budget {text!r} is not a number of seconds/minutes/hours (e.g. 90s, 10m)"
        )
    return float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", required=True)
    p.add_argument("--budget", default="10m")
    p.add_argument("--line", default="both")
    p.add_argument("--reference-fixes", action="store_true")
    p.add_argument("--report")
    p.add_argument("--python")
    p.add_argument("--programs", default=None)
    p.add_argument("--known")
    p.add_argument("--no-relax", action="store_true")
    p.add_argument("--wrong-fix")
    p.add_argument("--no-sentinels", action="store_true")
    # clause (c) on the OpenCL device where one is (else the replay); --no-device: the replay only
    p.add_argument("--device", action=argparse.BooleanOptionalAction, default=True)
    args = p.parse_args(argv)
    try:
        args.seed = int(args.seed)
    except ValueError:
        raise BadInput(f"--seed {args.seed!r} is not an integer") from None
    args.budget = budget_seconds(args.budget)
    if args.programs is not None:
        if not str(args.programs).isdigit():
            raise BadInput(f"--programs {args.programs!r} is not a whole number")
        args.programs = int(args.programs)
    if args.line not in ("tvm", "tirx", "both"):
        raise BadInput(f"--line {args.line!r}: use tvm, tirx or both")
    args.lines = ["tvm", "tirx"] if args.line == "both" else [args.line]
    if args.python and len(args.lines) != 1:
        raise BadInput("--python needs --line tvm or --line tirx")
    for line in args.lines:
        py = Path(args.python) if args.python else PYTHONS[line]
        if not (py.is_file() and os.access(py, os.X_OK)):
            raise BadInput(f"no interpreter for {line}: {py} is not an executable")
    if args.report:
        path = Path(args.report)
        if (
            path.is_dir()
            or not path.parent.is_dir()
            or not os.access(path.parent, os.W_OK)
            or (path.exists() and not os.access(path, os.W_OK))
        ):
            raise BadInput(f"--report {args.report}: cannot write there")
    if args.known and not Path(args.known).is_file():
        raise BadInput(f"--known {args.known}: no such file")
    if args.wrong_fix:
        if not args.reference_fixes:
            raise BadInput("--wrong-fix replaces one reference fix: it needs --reference-fixes")
        sys.path.insert(0, str(ROOT))
        from harness import wrong_fixes

        try:
            wrong_fixes.parse(args.wrong_fix)
        except ValueError as err:
            raise BadInput(f"--wrong-fix: {err}") from None
    return args


def run_line(line, args):
    """Run the line's worker; a worker that crashes (a signal) is restarted after the program
    it died on, which becomes a class of its own (clause (d): a crash is never a diagnostic)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        state, carried = Path(tmp) / "state.json", Path(tmp) / "carried.json"
        start_at, spent, restarts = 0, 0.0, 0
        while True:
            rc, out, tail = _worker(
                line, args, state, carried if restarts else None, start_at, args.budget - spent
            )
            if rc == 0 and out.strip():
                result = json.loads(out.strip().splitlines()[-1])
                if restarts and str(result.get("stopped_by", "")).startswith("budget"):
                    # a restarted worker had what was left of the budget: say the campaign's
                    result["stopped_by"] = f"budget of {args.budget:.0f} s"
                return result
            if not state.exists() or restarts >= 20:
                return {"line": line, "error": f"worker exited {rc}: {' / '.join(tail)[-300:]}"}
            snap = json.loads(state.read_text())
            current = snap.pop("current", None) or {}
            if not current:
                return {"line": line, "error": f"worker exited {rc} between programs"}
            key, message, text = _crash_class(line, args, rc, current)
            cls = snap["classes"].setdefault(
                key,
                {
                    "clause": "d",
                    "count": 0,
                    "first_program": current["index"] or "sentinels",
                    "message": message,
                    "reproducer": text,
                },
            )
            cls["count"] += 1
            snap["stats"]["d"]["tried"] += 1
            snap["stats"]["d"]["violations"] += 1
            carried.write_text(json.dumps(snap))
            start_at, spent, restarts = current["index"], snap["seconds"], restarts + 1
            if spent >= args.budget:
                snap.update(stopped_by=f"budget of {args.budget:.0f} s", programs=start_at)
                return snap


def _crash_class(line, args, rc, current):
    """(key, message, reproducer) of the program a worker died on: judged again alone in a
    fresh process (generator/rejudge_crash.py), which places the death and minimizes the program."""
    if rc >= 0 or not current.get("repr"):
        return f"d:crash:exit-{rc}", f"the worker exited {rc} judging this program", current["text"]
    cmd = [args.python or str(PYTHONS[line]), "-m", "generator.rejudge_crash", "--line", line]
    cmd += ["--case", current["repr"]]
    if args.reference_fixes:
        cmd.append("--reference-fixes")
    if args.wrong_fix:
        cmd += ["--wrong-fix", args.wrong_fix]
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    try:
        found = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        found = {"reproduced": False, "signal": -rc, "where": "unknown", "forks": 0}
    if found["reproduced"]:
        where, sig = found["where"], found["signal"]
        return (
            f"d:crash:{where}:signal-{sig}",
            f"the process dies (signal {sig}) in {where}: reproduced alone in a fresh process, "
            f"minimized in {found['forks']} runs",
            found["text"],
        )
    return (
        f"d:crash-in-campaign-only:signal-{-rc}:{current['kind']}",
        f"the worker died (signal {-rc}) judging this program, which does not die when judged "
        "alone in a fresh process (what earlier programs left behind, or chance)",
        current["text"],
    )


def _worker(line, args, state, carried, start_at, budget):
    py = args.python or str(PYTHONS[line])
    cmd = [
        py,
        "-m",
        "generator.worker",
        "--line",
        line,
        "--seed",
        str(args.seed),
        "--budget",
        str(max(budget, 0.0)),
        "--state",
        str(state),
        "--start-at",
        str(start_at),
    ]
    if carried is not None:
        cmd += ["--carried", str(carried)]
    if args.programs is not None:
        cmd += ["--programs", str(args.programs)]
    if args.reference_fixes:
        cmd.append("--reference-fixes")
    if args.no_relax:
        cmd.append("--no-relax")
    if args.wrong_fix:
        cmd += ["--wrong-fix", args.wrong_fix]
    if args.no_sentinels:
        cmd.append("--no-sentinels")
    if args.device:
        cmd.append("--device")
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    total, tail = args.programs, []
    for raw in proc.stderr:
        try:
            info = json.loads(raw)
        except ValueError:
            info = {}
        if isinstance(info, dict) and "progress" in info:
            bar = _bar(info, total, args.budget)
            print(f"\r[{line}] {bar}", end="", file=sys.stderr, flush=True)
        else:
            tail.append(raw.rstrip())
            del tail[:-5]
    out = proc.stdout.read()
    proc.wait()
    print(file=sys.stderr)
    return proc.returncode, out, tail


def _bar(info, total, budget):
    frac = info["elapsed"] / budget if budget else 0
    if total:
        frac = max(frac, info["progress"] / total)
    frac = min(frac, 1.0)
    filled = int(frac * 30)
    return (
        f"|{'#' * filled}{'.' * (30 - filled)}| {info['progress']} programs, "
        f"{info['classes']} classes, {info['elapsed']:.0f} s"
    )


def known_reason(key, known, line=None):
    """The reason ``key`` is known on ``line``: an entry ``key`` or ``[line] key``, exact or
    with ``*`` standing for any text (keys have their numbers written ``N``)."""
    for entry, reason in known.items():
        qualifier, _, rest = entry.partition("] ")
        if entry.startswith("[") and rest:
            if qualifier[1:] != line:
                continue
            entry = rest
        if entry == key:
            return reason
        if "*" in entry and re.fullmatch(".*".join(map(re.escape, entry.split("*"))), key):
            return reason
    return None


def _judges(r):
    """Who judged clause (c): the OpenCL device (--device), the CPU replay, how often each."""
    by = r.get("c_by", {})
    text = ", ".join(f"the {k} {n} times" for k, n in sorted(by.items())) or "nobody"
    if r.get("c_device", "yes") != "yes" and r.get("c_device") != "not asked for":
        text += f" (no device runs: {r['c_device']})"
    return text


def unjudged_share(r):
    """Clause (c)'s unjudged share of the valid programs: of all, and of those that compiled
    (the replay's own share)."""
    judged, unjudged = r["stats"]["c"]["tried"], r["unjudged_c"]
    uncompiled = r.get("unjudged_c_why", {}).get("the program does not compile", 0)
    total, replayed = judged + unjudged, judged + unjudged - uncompiled
    part = f"{unjudged} of {total} valid programs, {100 * unjudged / max(total, 1):.0f}%"
    part += (
        f"; of the {replayed} that compiled, {unjudged - uncompiled} "
        f"({100 * (unjudged - uncompiled) / max(replayed, 1):.0f}%)"
    )
    return part


def report(results, args, known):
    out = ["# Generator campaign", ""]
    fixes = "under the reference fixes" if args.reference_fixes else "released (no fixes)"
    if args.wrong_fix:
        fixes += f", the wrong fix {args.wrong_fix} instead of its report's"
    out.append(f"Seed {args.seed}, budget {args.budget:.0f} s, {fixes}.")
    out.append("")
    for r in results:
        if "error" in r:
            out += [f"## {r['line']}: {r['error']}", ""]
            continue
        rate = r["programs"] / max(r["seconds"], 1e-9) * 60
        out.append(f"## {r['line']} ({r['version']})")
        out.append("")
        out.append(
            f"{r['programs']} programs in {r['seconds']} s ({rate:.0f} per minute), "
            f"stopped by {r['stopped_by']}; clause (c) unjudged for {r['unjudged_c']} "
            f"({unjudged_share(r)}); generator parse failures: "
            f"{len(r['generator_parse_errors'])}; sentinels judged first: "
            f"{r.get('sentinels', 0)} (generator/sentinels.py)"
            + (f"; wrong fix installed: {r['wrong_fix']}" if r.get("wrong_fix") else "")
            + f"; clause (c) judged by {_judges(r)}."
        )
        out.append("")
        why = r.get("unjudged_c_why", {})
        if why:
            out.append("| why clause (c) could not judge a valid program | programs |")
            out.append("|---|---|")
            for reason, count in sorted(why.items(), key=lambda kv: (-kv[1], kv[0])):
                out.append(f"| {reason} | {count} |")
            out.append("")
        out.append("| clause | what | programs judged | violations | distinct classes |")
        out.append("|---|---|---|---|---|")
        for c, what in CLAUSES.items():
            n = sum(1 for k in r["classes"].values() if k["clause"] == c)
            s = r["stats"][c]
            out.append(f"| ({c}) | {what} | {s['tried']} | {s['violations']} | {n} |")
        out.append("")
        for key, k in sorted(r["classes"].items(), key=lambda kv: kv[0]):
            reason = known_reason(key, known, r["line"])
            tag = "known" if reason else "NEW"
            out.append(f"### ({k['clause']}) `{key}` [{tag}]")
            out.append("")
            if reason:
                out.append(f"Known: {reason}")
                out.append("")
            out.append(
                f"{k['count']} programs; first at program {k['first_program']}. {k['message']}"
            )
            out.append("")
            out.append("```python")
            out.append(k["reproducer"].rstrip())
            out.append("```")
            out.append("")
        for msg, text in r.get("oracle_errors", {}).items():
            out += [
                f"### oracle failure (not a TVM bug): {msg}",
                "",
                "```python",
                text.rstrip(),
                "```",
                "",
            ]
        for msg, text in r["generator_parse_errors"].items():
            out += [
                f"### generator parse failure (not a TVM bug): {msg}",
                "",
                "```python",
                text.rstrip(),
                "```",
                "",
            ]
    return "\n".join(out) + "\n"


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except BadInput as err:
        print(f"campaign: error: {err}", file=sys.stderr)
        return 2
    known = {}
    if args.known:
        known = runpy.run_path(args.known).get("KNOWN", {})
    results = [run_line(line, args) for line in args.lines]
    text = report(results, args, known)
    if args.report:
        Path(args.report).write_text(text)
    else:
        sys.stdout.write(text)
    new = sorted(
        {
            f"[{r['line']}] {k}"
            for r in results
            for k in r.get("classes", {})
            if known_reason(k, known, r["line"]) is None
        }
    )
    for r in results:
        if "error" not in r:
            print(
                f"campaign: {r['line']}: clause (c) unjudged: {unjudged_share(r)}", file=sys.stderr
            )
    failed = [r["line"] for r in results if "error" in r]
    if failed:
        print(f"campaign: worker failed on {', '.join(failed)}", file=sys.stderr)
        return 1
    if args.known and new:
        print(
            f"campaign: {len(new)} class(es) not in {args.known}: {', '.join(new)}", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
