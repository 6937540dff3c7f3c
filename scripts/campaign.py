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

Each line runs in a child process of its interpreter (.venv/bin/python for tvm,
.venv-tirx/bin/python for tirx; --python overrides, for one line). Progress on stderr; the
report (Markdown: per oracle clause and per TVM line, programs tried, violations, distinct
classes, each class with its minimal reproducer) goes to --report (default: stdout).
With --known FILE (a Python file defining KNOWN = {key: reason}), exit 1 when a class not in
it is found. Bad input (a budget or seed that is not a number, an interpreter that does not
exist, a report path that cannot be written): one line on stderr, exit 2.
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
                line, args, state, carried if start_at else None, start_at, args.budget - spent
            )
            if rc == 0 and out.strip():
                return json.loads(out.strip().splitlines()[-1])
            if not state.exists() or restarts >= 20:
                return {"line": line, "error": f"worker exited {rc}: {' / '.join(tail)[-300:]}"}
            snap = json.loads(state.read_text())
            current = snap.pop("current", None) or {}
            if not current:
                return {"line": line, "error": f"worker exited {rc} between programs"}
            key = f"d:crash:signal-{-rc}:{current['kind']}" if rc < 0 else f"d:crash:exit-{rc}"
            cls = snap["classes"].setdefault(
                key,
                {
                    "clause": "d",
                    "count": 0,
                    "first_program": current["index"],
                    "message": f"the process died (exit status {rc}) judging this program "
                    "(not minimized)",
                    "reproducer": current["text"],
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


def known_reason(key, known):
    """The reason ``key`` is known: an exact entry, or an entry whose ``*`` stand for any text
    (keys have their numbers written ``N``)."""
    if key in known:
        return known[key]
    for entry, reason in known.items():
        if "*" in entry and re.fullmatch(".*".join(map(re.escape, entry.split("*"))), key):
            return reason
    return None


def report(results, args, known):
    out = ["# Generator campaign", ""]
    fixes = "under the reference fixes" if args.reference_fixes else "released (no fixes)"
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
            f"stopped by {r['stopped_by']}; clause (c) unjudged for {r['unjudged_c']}; "
            f"generator parse failures: {len(r['generator_parse_errors'])}."
        )
        out.append("")
        out.append("| clause | what | programs judged | violations | distinct classes |")
        out.append("|---|---|---|---|---|")
        for c, what in CLAUSES.items():
            n = sum(1 for k in r["classes"].values() if k["clause"] == c)
            s = r["stats"][c]
            out.append(f"| ({c}) | {what} | {s['tried']} | {s['violations']} | {n} |")
        out.append("")
        for key, k in sorted(r["classes"].items(), key=lambda kv: kv[0]):
            reason = known_reason(key, known)
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
        {k for r in results for k in r.get("classes", {}) if known_reason(k, known) is None}
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
