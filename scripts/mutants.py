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
"""Mutation testing of the reference fixes: each tool-made mutant runs as a wrong fix.

    python scripts/mutants.py [--fix KEY ...] [--sample N] [--seed S] [--timeout SECONDS]
                              [--jobs N] [--markdown FILE] [--list] [--record] [--tvm-tirx]
                              [--equivalent FILE] [--only ID ...] [--quick] [--journal FILE]
    python scripts/mutants.py --ci        # the seeded CI sample over every fix

cosmic-ray (pinned in requirements-mutants.txt, in its own interpreter: build/mutants-venv,
made on first use, or MUTANTS_PYTHON) makes the mutants of bugs/<key>/reference_fix.py, with
every operator that takes no arguments, on the file's text (mutants/generate.py). Each
runs as the wrong fix ``<key>:mutant`` (mutants/plugin.py installs it in the pytest session
and in its child processes; no file changes): the same test files, the same kill rule, the
same pytest servers as scripts/wrong_fixes.py. Alone first run the tests that killed the
mutant last time (mutants/killers.json, written by ``--record``) and those that killed the
report's wrong fixes (harness/killers.json).

Columns per fix: mutants (all cosmic-ray makes); run (those sampled, but the equivalent
ones); killed (at least two tests fail); killed with an upstream test (the wrong-fix rule:
one of them in tests/python, or tvm-tirx/tests/python with --tvm-tirx); equivalent (in the
reviewed table mutants/equivalent.json, not run); timeouts/crashes (no verdict: the session
ran past --timeout, or ended without one, e.g. the mutant cannot be installed or a test
errored; or not judged: a runtime's mutant where this TVM sees no OpenCL device); survivors
(fewer than two tests fail), each listed with its line and mutation.

A mutant id is ``<key>.py:<line>:<operator>:<k>`` (k: that operator's k-th mutation on the
line). ``--sample N`` takes N mutants per fix, chosen by a generator seeded with ``--seed``
and the fix's key from the ids sorted, so the same seed gives the same sample. ``--ci`` is
``--sample 2 --seed 1 --timeout 120`` over every fix, and a mutant that its recorded tests
kill (two failures, upstream or not) is not run further: CI only asks whether one survives.
``--quick`` takes a kill by the tests tried first (the mutant's recorded killers, then those
of the report's wrong fixes) as the verdict, as ``--ci`` does, instead of running the report's
files for an upstream test: the "killed with an upstream test" column is then a lower bound.
``--only ID`` runs the named mutants alone (a survivor under review, say); their fixes are
taken from the ids. ``--journal FILE`` appends each verdict to FILE (a JSON line) as it is
reached, and a mutant the file already has a verdict for (same id, mutation and TVM line) is
not run again but counted with that verdict: a run of hours that stops can go on where it
stopped. Start a new journal after changing the tests, or rerun its survivors with --only.

Exit codes: 0 no survivor among those run; 1 a survivor; 2 cannot run (bad option, no tool
interpreter, a run that errored outside any mutant).
"""

import argparse
import concurrent.futures
import hashlib
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import mutants  # noqa: E402
from harness import reference_fixes, wrong_fixes  # noqa: E402
from harness.stop_when_killed import MIN_KILLERS  # noqa: E402


def _load_runner():
    """scripts/wrong_fixes.py, by its path (scripts/ is no package)."""
    spec = importlib.util.spec_from_file_location(
        "wrong_fixes_runner", ROOT / "scripts" / "wrong_fixes.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUNNER = _load_runner()
REQUIREMENTS = ROOT / "requirements-mutants.txt"
TOOL_VENV = ROOT / "build" / "mutants-venv"
GENERATE = ROOT / "mutants" / "generate.py"
CI = {"sample": 2, "seed": 1, "timeout": 120.0}
# {line: {mutant id: the failing tests that killed it}}, written by --record: --ci runs them
# alone first and takes a kill by them as the verdict
KILLERS_FILE = mutants.HERE / "killers.json"
DEFAULT_TIMEOUT = 300.0


class Error(Exception):
    """Bad input or a tool that cannot run; the message is one line."""


@dataclass
class Mutant:
    """One mutant of bugs/<key>/reference_fix.py: where it is, what it changes, its verdict."""

    key: str
    operator: str
    occurrence: int
    line: int
    k: int
    text: str
    before: str = ""
    after: str = ""
    source: str = ""
    # killed / killed-upstream / survived / equivalent / timeout / crash / not judged
    verdict: str = ""
    tests: list = field(default_factory=list)
    why: str = ""

    @property
    def id(self):
        return f"{self.key}.py:{self.line}:{self.operator.removeprefix('core/')}:{self.k}"

    @property
    def mutation(self):
        def one(text):
            return " | ".join(part.strip() for part in text.splitlines()) or "(removed)"

        return f"{one(self.before)} -> {one(self.after)}"


def tool_python():
    """The interpreter that has cosmic-ray: MUTANTS_PYTHON, else build/mutants-venv (made from
    requirements-mutants.txt on first use and when that file changes)."""
    if os.environ.get("MUTANTS_PYTHON"):
        return os.environ["MUTANTS_PYTHON"]
    python = TOOL_VENV / "bin" / "python"
    want = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    stamp = TOOL_VENV / ".requirements.sha256"
    if python.exists() and stamp.exists() and stamp.read_text().strip() == want:
        return str(python)
    print(f"mutants: installing {REQUIREMENTS.name} into {TOOL_VENV.relative_to(ROOT)}", flush=True)
    steps = [
        [sys.executable, "-m", "venv", str(TOOL_VENV)],
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "-r",
            str(REQUIREMENTS),
        ],
    ]
    for step in steps:
        proc = subprocess.run(step, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            last = (proc.stderr.strip() or proc.stdout.strip() or "no output").splitlines()[-1]
            raise Error(f"cannot set up the mutation tool ({' '.join(step[:3])}...): {last}")
    stamp.write_text(want + "\n")
    return str(python)


def _tool(python, args):
    proc = subprocess.run(
        [python, str(GENERATE), *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        last = (proc.stderr.strip() or "no output").splitlines()[-1]
        raise Error(f"mutants/generate.py failed: {last}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def generate(python, keys, folder=ROOT / "bugs"):
    """{key: [Mutant]} of every mutant of ``folder``/<key>/reference_fix.py, sorted by id."""
    paths = {str(folder / key / "reference_fix.py"): key for key in keys}
    found = {key: [] for key in keys}
    for row in _tool(python, ["list", *paths]):
        key = paths[row["file"]]
        found[key].append(
            Mutant(key, row["operator"], row["occurrence"], row["line"], row["k"], row["text"])
        )
    for key in found:
        found[key].sort(key=lambda m: (m.line, m.operator, m.k))
    return found


def apply(python, chosen, out_dir, folder=ROOT / "bugs"):
    """Make the source of each mutant of ``chosen`` (written under ``out_dir``); fills in
    before, after and source."""
    if not chosen:
        return
    specs = [f"{folder / m.key / 'reference_fix.py'}:{m.operator}:{m.occurrence}" for m in chosen]
    rows = _tool(python, ["apply", str(out_dir), *specs])
    for mutant, row in zip(chosen, rows, strict=True):
        mutant.before, mutant.after, mutant.source = row["before"], row["after"], row["source"]


def sample(found, size, seed):
    """{key: [Mutant]}: ``size`` mutants per key (all with None), drawn by a generator seeded
    with ``seed`` and the key from the mutants in id order."""
    if size is None:
        return {key: list(ms) for key, ms in found.items()}
    chosen = {}
    for key, ms in found.items():
        picked = random.Random(f"{seed}:{key}").sample(range(len(ms)), min(size, len(ms)))
        chosen[key] = [ms[i] for i in sorted(picked)]
    return chosen


def review(chosen, table, line="apache/tvm"):
    """Mark the mutants the reviewed table lists as equivalent on ``line`` (when its recorded
    mutation is this mutant's); return the ids of stale entries among ``chosen`` ({id: why})."""
    stale = {}
    for mutant in chosen:
        entry = table.get(mutant.id)
        if entry is None or entry.get("line", line) != line:
            continue
        if entry["mutation"] != mutant.mutation:
            stale[mutant.id] = f"recorded {entry['mutation']!r}, now {mutant.mutation!r}"
            continue
        mutant.verdict, mutant.why = "equivalent", entry["reason"]
    return stale


def judge(mutant, names, upstream):
    """Set the verdict of a mutant run whose failing tests are ``names``."""
    mutant.tests = list(names)
    if RUNNER.killed(names, upstream):
        mutant.verdict = "killed-upstream"
    elif len(names) >= MIN_KILLERS:
        mutant.verdict = "killed"
    else:
        mutant.verdict = "survived"


def first_tests(record, line, key):
    """The tests that killed ``key``'s wrong fixes (KILLERS_FILE), each once, in order."""
    seen = {}
    for spec, names in sorted(record.get(line, {}).items()):
        if spec.partition(":")[0] == key:
            seen.update(dict.fromkeys(names))
    return list(seen)


# the verdicts of the timeouts/crashes column
NO_VERDICT = ("timeout", "crash", "not judged")
COLUMNS = (
    "fix",
    "mutants",
    "run",
    "killed",
    "killed with an upstream test",
    "equivalent",
    "timeouts/crashes",
    "survivors",
)


def rows(found, chosen):
    """The table's rows, one per fix, and a total."""
    out, total = [], [0] * (len(COLUMNS) - 1)
    for key in found:
        ms = chosen.get(key, [])
        ran = [m for m in ms if m.verdict != "equivalent"]
        count = [
            len(found[key]),
            len(ran),
            sum(m.verdict in ("killed", "killed-upstream") for m in ms),
            sum(m.verdict == "killed-upstream" for m in ms),
            sum(m.verdict == "equivalent" for m in ms),
            sum(m.verdict in NO_VERDICT for m in ms),
            sum(m.verdict == "survived" for m in ms),
        ]
        total = [a + b for a, b in zip(total, count, strict=True)]
        out.append([key, *count])
    out.append(["total", *total])
    return out


def cell(text):
    """``text`` as a Markdown table cell (a ``|`` of its own would end the cell)."""
    return text.replace("|", "\\|")


def markdown(found, chosen):
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows(found, chosen):
        cells = [f"`{row[0]}`" if row[0] != "total" else "**total**", *map(str, row[1:])]
        lines.append("| " + " | ".join(cells) + " |")
    every = [m for ms in chosen.values() for m in ms]
    sections = (
        (
            "Survivors (fewer than two tests fail)",
            "survived",
            lambda m: ", ".join(f"`{RUNNER.short(t)}`" for t in m.tests) or "no test fails",
        ),
        (
            "Killed by tests of this repository only (no upstream test among them)",
            "killed",
            lambda m: ", ".join(f"`{RUNNER.short(t)}`" for t in m.tests),
        ),
        (
            "Timeouts, crashes, not judged (no verdict)",
            NO_VERDICT,
            lambda m: f"{m.verdict}: {m.why}",
        ),
        ("Equivalent (mutants/equivalent.json)", "equivalent", lambda m: m.why),
    )
    for title, verdicts, detail in sections:
        picked = [
            m
            for m in every
            if m.verdict in (verdicts if isinstance(verdicts, tuple) else (verdicts,))
        ]
        if picked:
            lines += ["", f"{title}:", "", "| mutant | mutation | |", "|---|---|---|"]
            lines += [f"| `{m.id}` | `{cell(m.mutation)}` | {cell(detail(m))} |" for m in picked]
    return "\n".join(lines) + "\n"


def text_table(found, chosen):
    widths = [max(len(COLUMNS[0]), *(len(k) for k in found), 5)] + [len(c) for c in COLUMNS[1:]]
    out = ["  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True))]
    for row in rows(found, chosen):
        out.append("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))
    for m in (m for ms in chosen.values() for m in ms):
        if m.verdict == "survived":
            out.append(f"SURVIVED {m.key}.py:{m.line}  {m.mutation}  ({m.id})")
        elif m.verdict in NO_VERDICT:
            out.append(f"{m.verdict.upper()} {m.id}: {m.why}")
    return "\n".join(out)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--fix",
        action="append",
        default=[],
        metavar="KEY",
        help="a reference fix to mutate (default: every one of the line)",
    )
    parser.add_argument("--sample", type=int, metavar="N", help="N mutants per fix (default: all)")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"per pytest session (default {DEFAULT_TIMEOUT:g}; --ci: {CI['timeout']:g})",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at a time")
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the table there")
    parser.add_argument(
        "--journal",
        type=Path,
        metavar="FILE",
        help="append each verdict to FILE as it is reached; mutants FILE has a verdict for are "
        "not run again (a run that stopped goes on)",
    )
    parser.add_argument("--list", action="store_true", help="list the chosen mutants, run none")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="ID",
        help="run only this mutant (an id as --list prints it; repeatable)",
    )
    parser.add_argument(
        "--ci",
        action="store_true",
        help="the CI sample: --sample {sample} --seed {seed} --timeout {timeout:g} "
        "over every fix".format(**CI),
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a kill by the tests tried first is the verdict, as with --ci: much faster, and "
        "the upstream column is then a lower bound",
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help=f"write the tests that killed each mutant to {KILLERS_FILE.relative_to(ROOT)}",
    )
    parser.add_argument(
        "--tvm-tirx",
        action="store_true",
        help="the apache/tvm-tirx line (tvm-tirx/tests/python, .venv-tirx)",
    )
    parser.add_argument(
        "--equivalent",
        type=Path,
        default=mutants.EQUIVALENT_FILE,
        metavar="FILE",
        help="the reviewed table of equivalent mutants",
    )

    def error(message):
        raise Error(message)

    parser.error = error
    args = parser.parse_args(argv)
    if args.ci:
        if args.fix or args.sample is not None:
            raise Error("--ci takes every fix and its own sample")
        args.sample, args.seed = CI["sample"], CI["seed"]
        args.timeout = CI["timeout"] if args.timeout is None else args.timeout
    args.timeout = DEFAULT_TIMEOUT if args.timeout is None else args.timeout
    if args.only and (args.ci or args.sample is not None):
        raise Error("--only names its mutants: no --ci or --sample with it")
    malformed = [i for i in args.only if not re.fullmatch(r"\w+\.py:\d+:\w+:\d+", i)]
    if malformed:
        raise Error(f"not a mutant id (KEY.py:LINE:OPERATOR:K): {', '.join(malformed)}")
    args.fix += [i.split(".py:")[0] for i in args.only if i.split(".py:")[0] not in args.fix]
    keys = reference_fixes.ON_TVM_TIRX if args.tvm_tirx else reference_fixes.KNOWN
    unknown = [k for k in args.fix if k not in keys]
    if unknown:
        raise Error(f"unknown fix(es) {', '.join(unknown)}; known: {', '.join(keys)}")
    if args.sample is not None and args.sample < 1:
        raise Error("--sample must be at least 1")
    if args.jobs < 1 or args.timeout <= 0:
        raise Error("--jobs and --timeout must be positive")
    for option, path in (("--markdown", args.markdown), ("--journal", args.journal)):
        if path is not None and not RUNNER._writable(path):
            raise Error(
                f"{option} {path}: cannot write there (name a file in a folder you can write)"
            )
    args.keys = [k for k in keys if not args.fix or k in args.fix]
    args.line = "apache/tvm-tirx" if args.tvm_tirx else "apache/tvm"
    return args


def journal_verdicts(path, line):
    """{mutant id: entry} of the journal ``path`` for ``line`` (later entries win); an
    unreadable line of the file is an Error naming it."""
    found = {}
    if path is None or not path.exists():
        return found
    for n, text in enumerate(path.read_text().splitlines(), 1):
        try:
            entry = json.loads(text)
            if not isinstance(entry, dict) or not {"id", "mutation", "line", "verdict"} <= set(
                entry
            ):
                raise ValueError("an entry is an object with id, mutation, line and verdict")
        except ValueError as err:
            raise Error(f"{path}:{n}: not a journal entry ({err})") from None
        if entry["line"] == line:
            found[entry["id"]] = entry
    return found


def from_journal(chosen, journal):
    """Give the mutants of ``chosen`` that ``journal`` judged (same mutation) that verdict; return
    how many."""
    taken = 0
    for mutant in chosen:
        entry = journal.get(mutant.id)
        if mutant.verdict or entry is None or entry["mutation"] != mutant.mutation:
            continue
        mutant.verdict, mutant.why = entry["verdict"], entry.get("why", "")
        mutant.tests = list(entry.get("tests", ()))
        taken += 1
    return taken


def run(args):
    try:
        table = mutants.reviewed(args.equivalent)
    except (OSError, ValueError) as err:
        raise Error(f"{args.equivalent}: {err}") from None
    python = tool_python()
    started = time.monotonic()
    found = generate(python, args.keys)
    chosen = sample(found, args.sample, args.seed)
    if args.only:
        made = {m.id for ms in found.values() for m in ms}
        missing = [i for i in args.only if i not in made]
        if missing:
            raise Error(f"no such mutant: {', '.join(missing)} (see --list)")
        chosen = {k: [m for m in ms if m.id in args.only] for k, ms in chosen.items()}
    every = [m for ms in chosen.values() for m in ms]
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        apply(python, every, Path(tmp))
        stale = review(every, table, args.line)
        for mid, why in stale.items():
            print(f"mutants: stale entry of {args.equivalent.name}, run: {mid}: {why}")
        print(
            f"mutants: {sum(map(len, found.values()))} made, {len(every)} chosen "
            f"(sample {args.sample or 'all'} per fix, seed {args.seed}), "
            f"{sum(m.verdict == 'equivalent' for m in every)} equivalent "
            f"({time.monotonic() - started:.0f} s)",
            flush=True,
        )
        if args.list:
            for m in every:
                print(f"{m.id}  {m.mutation}" + ("  [equivalent]" if m.verdict else ""))
            return 0
        taken = from_journal(every, journal_verdicts(args.journal, args.line))
        if taken:
            print(f"mutants: {taken} verdicts taken from {args.journal}", flush=True)
        to_run = [m for m in every if not m.verdict]
        execute(args, to_run, Path(tmp))
    print(text_table(found, chosen))
    if args.markdown:
        args.markdown.write_text(markdown(found, chosen))
    survivors = [m for m in every if m.verdict == "survived"]
    print(
        f"mutants: {len(to_run)} run, {len(survivors)} survived "
        f"({time.monotonic() - started:.0f} s)"
    )
    return 1 if survivors else 0


def execute(args, to_run, tmp):
    """Run each mutant as a wrong fix, ``args.jobs`` at a time; prints a line as each ends."""
    suite, upstream, python = RUNNER.SUITE, RUNNER.UPSTREAM, sys.executable
    line = args.line
    if args.tvm_tirx:
        suite, upstream = RUNNER.TIRX_SUITE, RUNNER.TIRX_UPSTREAM
        try:
            python = RUNNER.tirx_python()
        except RUNNER.RunError as err:
            raise Error(str(err)) from None
    os.environ.pop("TVM_REFERENCE_FIXES", None)
    os.environ.pop("TVM_WRONG_FIX", None)
    os.environ.pop(mutants.SOURCE_ENV, None)
    if any(wrong_fixes.needs_opencl(m.key) for m in to_run):
        proc = subprocess.run(
            [python, str(ROOT / "scripts" / "opencl_runtime.py"), "--device"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            why = (proc.stdout.strip() or proc.stderr.strip() or "no OpenCL device").splitlines()
            for m in [m for m in to_run if wrong_fixes.needs_opencl(m.key)]:
                m.verdict, m.why = "not judged", why[-1]
                to_run.remove(m)
    if not to_run:
        return
    record = json.loads(RUNNER.KILLERS_FILE.read_text()) if RUNNER.KILLERS_FILE.exists() else {}
    mutant_record = json.loads(KILLERS_FILE.read_text()) if KILLERS_FILE.exists() else {}
    recorded = mutant_record.get(line, {})
    files = {m.key: RUNNER.files_of(m.key, suite) for m in to_run}
    jobs = max(1, min(args.jobs, len(to_run)))
    servers = RUNNER.Servers(python, RUNNER.PRELOAD[suite[0]], jobs)
    done = []
    lock = threading.Lock()

    def run_one(n_mutant):
        n, mutant = n_mutant
        source = tmp / f"mutant-{n}.json"
        source.write_text(
            json.dumps(
                {"report": mutant.key, "id": mutant.id, "source": Path(mutant.source).read_text()}
            )
        )
        extra = [
            "-p",
            "mutants.plugin",
            f"--mutant-source={source}",
            f"--mutant-timeout={args.timeout:g}",
        ]
        start = time.monotonic()
        spec = f"{mutant.key}:{mutants.NAME}"
        try:
            first = recorded.get(mutant.id, ()) if args.ci else ()
            if args.quick:
                first = [*recorded.get(mutant.id, ()), *first_tests(record, line, mutant.key)]
            if first:
                # the tests that killed it (or the report's wrong fixes) last time, alone: a
                # kill by them is a kill (a kill only needs more failures), which is all --ci
                # and --quick ask; a stale record (a test renamed) costs time, never a verdict
                try:
                    names = RUNNER.killers(spec, first, extra, servers, upstream)
                except RUNNER.RunError:
                    names = []
                if len(names) >= MIN_KILLERS:
                    judge(mutant, names, upstream)
            if mutant.verdict == "":
                # the tests tried alone above do not run alone again: the whole run decides
                again = (
                    ()
                    if first
                    else [*recorded.get(mutant.id, ()), *first_tests(record, line, mutant.key)]
                )
                names = RUNNER.killers(
                    spec, files[mutant.key], extra, servers, upstream, True, again
                )
                judge(mutant, names, upstream)
        except RUNNER.RunError as err:
            exits = (mutants.TIMEOUT_EXIT, mutants.CPU_LIMIT_EXIT)
            timed_out = any(f"pytest exit {code}:" in str(err) for code in exits)
            mutant.verdict = "timeout" if timed_out else "crash"
            mutant.why = str(err).removeprefix(f"{mutant.key}:{mutants.NAME}: ")
        with lock:
            done.append(mutant)
            if args.journal is not None:
                entry = {
                    "id": mutant.id,
                    "mutation": mutant.mutation,
                    "line": line,
                    "verdict": mutant.verdict,
                    "why": mutant.why,
                    "tests": mutant.tests,
                }
                with open(args.journal, "a") as out:
                    out.write(json.dumps(entry) + "\n")
        print(
            f"[{len(done)}/{len(to_run)}] {mutant.id:<64} {mutant.verdict:<16} "
            f"{time.monotonic() - start:6.1f} s",
            flush=True,
        )

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(run_one, enumerate(to_run)))
    finally:
        servers.close()
    if args.record:
        recorded.update({m.id: m.tests for m in to_run if m.verdict.startswith("killed")})
        mutant_record[line] = dict(sorted(recorded.items()))
        KILLERS_FILE.write_text(json.dumps(mutant_record, indent=1, sort_keys=True) + "\n")


def main(argv=None):
    try:
        return run(parse_args(argv))
    except Error as err:
        print(f"mutants: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
