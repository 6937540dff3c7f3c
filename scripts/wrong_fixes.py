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
"""Run the suite once per wrong fix (bugs/<key>/wrong_fixes.py) and report which tests kill each.

    python scripts/wrong_fixes.py [--list] [--only REPORT[:NAME] ...] [--markdown FILE]
                                  [--all-killers] [--all-files] [--jobs N] [--tvm-tirx]
                                  [--record]
                                  [-- PYTEST ARGS]

For every wrong fix (a small, deliberately wrong variant of a reference fix) it runs
``pytest FILES --wrong-fix=REPORT:NAME``: that wrong fix is installed and the report's bug
tests must pass, so every test that fails has caught the mistake. FILES are the test files
of tests/python, tests/proof and bugs/ that hold the report's tests (its xfail phrase or its
key in the file), or all of them with ``--all-files``. A wrong fix counts as killed when at
least two tests fail, at least one of them in an upstream file (tests/python). A run stops
as soon as its failures kill the wrong fix (harness/stop_when_killed.py), so its verdict does
not depend on the order the tests run in; ``--all-killers`` runs every test and lists every
killing test. Runs go ``--jobs`` at a time, each a pytest session in a fork of a process that
has imported TVM once (harness/pytest_server.py). The tests that killed a wrong fix last time
(harness/killers.json, written by ``--record``) run alone first: if they kill it again,
so would the whole run. Only test failures count: a collection or fixture error is not a
kill: that wrong fix gets no verdict.

A wrong fix of a runtime (its module sets ``NEEDS_OPENCL``: uint64_scalar's, each an OpenCL
runtime built with another header) can only be told apart by a launch: where this TVM sees no
OpenCL device (scripts/opencl_runtime.py --device), it is listed as not judged, with the
reason, and does not count as a survivor.

A wrong fix its module lists in ``UNSEEN`` (a mistake of the Python stand-in that the C++
cannot make, one that no program of the series tells apart, or one that kills the test process
instead of failing a test) is not run; docs/proof.md names each with the reason.

``--tvm-tirx`` does the same on the apache/tvm-tirx line: the wrong fixes of the reports
whose reference fix works there (``bug_reports.ON_TVM_TIRX``; not those a module lists in
``NOT_ON_TVM_TIRX``, which no program can tell apart there), over
tvm-tirx/tests/python (all upstream), run by .venv-tirx's interpreter (or TIRX_PYTHON).

Prints a table (wrong fix, what it models, killing tests); ``--markdown FILE`` writes the
same table as Markdown. A run that ends without a verdict (pytest killed by a signal, a test
that errored) is listed as such and the other wrong fixes are still judged. Exit codes: 0 every
wrong fix killed; 1 a wrong fix survived; 2 cannot run (bad option, unknown wrong fix) or a run
ended without a verdict.
"""

import argparse
import concurrent.futures
import json
import os
import queue
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bug_reports import BUG_REPORTS  # noqa: E402
from harness import wrong_fixes  # noqa: E402
from harness.stop_when_killed import killed as _killed  # noqa: E402

SUITE = ["tests/python", "tests/proof", "bugs"]
UPSTREAM = "tests/python/"
# --tvm-tirx: the apache/tvm-tirx line (its upstream tests, run by .venv-tirx's interpreter)
TIRX_SUITE = ["tvm-tirx/tests/python"]
TIRX_UPSTREAM = "tvm-tirx/tests/python/"
# what every session imports first: the servers import it once (harness/pytest_server.py)
COMMON = ["numpy", "pytest"]
PRELOAD = {SUITE[0]: ["tvm", *COMMON], TIRX_SUITE[0]: ["tvm_tirx", *COMMON]}
# {line: {wrong fix: the tests that killed it}}, written by --record: each run tries those
# tests alone first (see killers)
KILLERS_FILE = ROOT / "harness" / "killers.json"


def files_of(report, suite=SUITE):
    """The test files that hold tests of ``report``."""
    phrase, found = BUG_REPORTS[report].lower(), []
    for folder in suite:
        for path in sorted((ROOT / folder).rglob("test_*.py")):
            if report in path.name or phrase in path.read_text().lower():
                found.append(str(path.relative_to(ROOT)))
    return found


def _writable(path):
    """Whether the file ``path`` can be written: tried before a run of minutes, not after it
    (a file that was not there is removed again)."""
    path = Path(path)
    existed = path.exists()
    try:
        with open(path, "a"):
            pass
    except OSError:
        return False
    if not existed:
        path.unlink()
    return True


class RunError(Exception):
    """A run that says nothing about the wrong fix; the message is the reason."""


class Servers:
    """``jobs`` pytest servers (harness/pytest_server.py) of ``python``, handed out one per
    session."""

    def __init__(self, python, preload, jobs):
        self.idle, self.procs = queue.Queue(), []
        for _ in range(jobs):
            proc = subprocess.Popen(
                [python, str(ROOT / "harness" / "pytest_server.py"), *preload],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            self.procs.append(proc)
            self.idle.put(proc)

    def run(self, args, log):
        """The exit code of one pytest session with ``args``, its output in ``log``."""
        proc = self.idle.get()
        try:
            proc.stdin.write(json.dumps({"args": args, "log": str(log)}) + "\n")
            proc.stdin.flush()
            answer = proc.stdout.readline()
        except BrokenPipeError:
            answer = ""
        if not answer.strip():
            err = proc.stderr.read().strip().splitlines()[-1:] or ["no output"]
            raise RunError(f"the pytest server ended: {err[0]}")
        self.idle.put(proc)
        return int(answer)

    def close(self):
        for proc in self.procs:
            proc.stdin.close()
        for proc in self.procs:
            proc.wait()


def _session(spec, targets, pytest_args, servers, upstream, until_killed):
    """(the failing node ids, None) of one session over ``targets``, or (None, why) where
    pytest ended otherwise (no JUnit XML, an exit code that is no test outcome); tests that
    errored raise RunError."""
    with tempfile.TemporaryDirectory() as tmp:
        xml, log = Path(tmp) / "junit.xml", Path(tmp) / "pytest.log"
        # --tb=native: only whether a test failed is read, and pytest's own traceback costs
        # ten times more to build
        stop = ["-p", "harness.stop_when_killed", f"--until-killed={upstream}"] * until_killed
        args = ["-p", "no:cacheprovider", "-p", "no:xdist", "-q", "--tb=native",
                "-o", "junit_family=xunit1", f"--junitxml={xml}", f"--wrong-fix={spec}",
                *stop, *targets, *pytest_args]  # fmt: skip
        rc = servers.run(args, log)
        if rc not in (0, 1) or not xml.exists():
            tail = log.read_text().strip().splitlines()[-1:] if log.exists() else []
            return None, f"pytest exit {rc}: {(tail or ['no output'])[0]}"
        failed, errors = [], []
        for case in ET.parse(xml).iter("testcase"):
            name = f"{case.get('file') or case.get('classname')}::{case.get('name')}"
            if case.find("failure") is not None:
                failed.append(name)
            if case.find("error") is not None:
                errors.append(name)
        if errors:
            raise RunError(f"{spec}: {len(errors)} test(s) errored, e.g. {errors[0]}")
        return failed, None


def killers(spec, files, pytest_args, servers, upstream=UPSTREAM, until_killed=True, first=()):
    """The node ids of the tests in ``files`` that fail with the wrong fix ``spec`` (with
    ``until_killed``: those up to the one that kills it).

    ``first``: the tests that killed it last time (KILLERS_FILE). They run alone first; if
    they kill it, that is the verdict of the whole run too (a kill only needs more failures,
    never fewer), else the whole run decides. A stale record costs time, never a verdict."""

    def in_files(node):
        path = node.partition("::")[0]
        return any(path == f or path.startswith(f.rstrip("/") + "/") for f in files)

    first = [n for n in first if in_files(n)]
    if until_killed and first:
        failed, _ = _session(spec, first, pytest_args, servers, upstream, True)
        if failed is not None and killed(failed, upstream):
            return failed
    failed, why = _session(spec, files, pytest_args, servers, upstream, until_killed)
    if failed is None:
        raise RunError(f"{spec}: {why}")
    return failed


def killed(names, upstream_prefix=UPSTREAM):
    return _killed(names, upstream_prefix)


def short(name):
    path, _, test = name.partition("::")
    return f"{path.removeprefix('tests/')}::{test}"


def tirx_python():
    """The interpreter of the tvm-tirx line: TIRX_PYTHON, else .venv-tirx (setup.sh --tirx)."""
    python = os.environ.get("TIRX_PYTHON") or str(ROOT / ".venv-tirx" / "bin" / "python")
    if not os.access(python, os.X_OK):
        raise RunError(f"no tvm-tirx interpreter {python} (run scripts/setup.sh --tirx)")
    return python


def selectable(tvm_tirx=False):
    """{(report, name): description} of the wrong fixes of the apache/tvm line, or of the
    apache/tvm-tirx line: those of the reports whose reference fix works there, but for the
    ones a module lists in NOT_ON_TVM_TIRX; on both lines not those a module lists in
    UNSEEN (no test can see them; docs/proof.md names each with the reason)."""
    catalogue = {
        key: text
        for key, text in wrong_fixes.catalogue().items()
        if not wrong_fixes.listed(*key, "UNSEEN")
    }
    if not tvm_tirx:
        return catalogue
    from harness import reference_fixes

    return {
        (report, name): text
        for (report, name), text in catalogue.items()
        if report in reference_fixes.ON_TVM_TIRX
        and not wrong_fixes.listed(report, name, "NOT_ON_TVM_TIRX")
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the wrong fixes and exit")
    parser.add_argument("--only", action="append", default=[], metavar="REPORT[:NAME]")
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown")
    parser.add_argument("--all-files", action="store_true", help="run the whole suite each time")
    parser.add_argument(
        "--record",
        action="store_true",
        help=f"write the killing tests to {KILLERS_FILE.relative_to(ROOT)} (they run first "
        "next time)",
    )
    parser.add_argument(
        "--all-killers", action="store_true", help="run every test, list every killing test"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at a time")
    parser.add_argument(
        "--tvm-tirx",
        action="store_true",
        help="the apache/tvm-tirx line: the wrong fixes of the reports whose reference fix "
        "works there, over tvm-tirx/tests/python, with .venv-tirx (or TIRX_PYTHON)",
    )
    parser.add_argument("pytest_args", nargs="*", help="after --: extra pytest arguments")
    args = parser.parse_args(argv)
    if args.markdown and not _writable(args.markdown):
        print(
            f"wrong_fixes: error: --markdown {args.markdown}: cannot write there (name a file "
            "in a folder you can write)",
            file=sys.stderr,
        )
        return 2
    catalogue = selectable(args.tvm_tirx)
    suite, upstream, python = SUITE, UPSTREAM, sys.executable
    if args.tvm_tirx:
        suite, upstream = TIRX_SUITE, TIRX_UPSTREAM
        try:
            python = tirx_python()
        except RunError as err:
            print(f"wrong_fixes: error: {err}", file=sys.stderr)
            return 2
    selected = {
        key: text
        for key, text in catalogue.items()
        if not args.only or any(o in (key[0], f"{key[0]}:{key[1]}") for o in args.only)
    }
    unknown = [o for o in args.only if not any(o in (r, f"{r}:{n}") for r, n in catalogue)]
    if unknown or not selected:
        what = f"unknown wrong fix(es) {', '.join(unknown)}" if unknown else "no wrong fixes"
        print(f"wrong_fixes: error: {what} (see --list)", file=sys.stderr)
        return 2
    if args.list:
        for (report, name), text in selected.items():
            print(f"{report}:{name}  {text}")
        return 0
    os.environ.pop("TVM_REFERENCE_FIXES", None)
    os.environ.pop("TVM_WRONG_FIX", None)
    unjudged = {}  # {spec: why} of the wrong fixes that need a device this TVM has not
    if any(wrong_fixes.needs_opencl(report) for report, _ in selected):
        proc = subprocess.run([python, str(ROOT / "scripts" / "opencl_runtime.py"), "--device"],
                              cwd=ROOT, capture_output=True, text=True, check=False)  # fmt: skip
        if proc.returncode != 0:
            why = (proc.stdout.strip() or proc.stderr.strip() or "no OpenCL device").splitlines()
            for report, name in [k for k in selected if wrong_fixes.needs_opencl(k[0])]:
                unjudged[f"{report}:{name}"] = why[-1]
                del selected[(report, name)]
    if not selected:
        for spec, why in unjudged.items():
            print(f"{spec:<48} not judged: {why}")
        return 0
    jobs = max(1, min(args.jobs, len(selected)))
    line = "apache/tvm-tirx" if args.tvm_tirx else "apache/tvm"
    try:
        record = json.loads(KILLERS_FILE.read_text()) if KILLERS_FILE.exists() else {}
    except ValueError as err:
        print(f"wrong_fixes: error: {KILLERS_FILE} is no JSON: {err}", file=sys.stderr)
        return 2
    servers = Servers(python, PRELOAD[suite[0]], jobs)

    def run_one(item):
        (report, name), text = item
        spec = f"{report}:{name}"
        start = time.monotonic()
        files = suite if args.all_files else files_of(report, suite)
        first = record.get(line, {}).get(spec, ())
        try:
            names = killers(
                spec, files, args.pytest_args, servers, upstream, not args.all_killers, first
            )
        except RunError as err:  # no verdict for this one; the others still get theirs
            return spec, text, None, time.monotonic() - start, str(err).removeprefix(f"{spec}: ")
        return spec, text, names, time.monotonic() - start, None

    rows, survivors = [], []
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            everything = list(pool.map(run_one, selected.items()))
    finally:
        servers.close()
    errored = {spec: why for spec, _, _, _, why in everything if why is not None}
    results = [(spec, text, names, seconds) for spec, text, names, seconds, why in everything
               if why is None]  # fmt: skip
    if args.record:
        ours = record.setdefault(line, {})
        ours.update({spec: names for spec, _, names, _ in results if killed(names, upstream)})
        record[line] = dict(sorted(ours.items()))
        KILLERS_FILE.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    for spec, text, names, seconds in results:
        ok = killed(names, upstream)
        if not ok:
            survivors.append(spec)
        rows.append((spec, text, names, ok))
        verdict = f"killed by {len(names)}" if ok else f"SURVIVED ({len(names)} failing)"
        print(f"{spec:<48} {verdict:<16} {seconds:5.1f} s")
        for n in names:
            print(f"    {short(n)}")
    if args.markdown:
        head = "killed by" if args.all_killers else "killed by (the failing tests up to the kill)"
        lines = [f"| wrong fix | the mistake it models | {head} |", "|---|---|---|"]
        for spec, text, names, ok in rows:
            tests = "<br>".join(f"`{short(n)}`" for n in names)
            lines.append(f"| `{spec}` | {text} | {tests if ok else '**survives** ' + tests} |")
        args.markdown.write_text("\n".join(lines) + "\n")
    for spec, why in unjudged.items():
        print(f"{spec:<48} not judged: {why}")
    for spec, why in errored.items():
        print(f"{spec:<48} no verdict: {why}")
    if args.markdown and errored:
        with open(args.markdown, "a") as out:
            out.writelines(f"| `{spec}` | no verdict: {why} | |\n" for spec, why in errored.items())
    if args.markdown and unjudged:
        with open(args.markdown, "a") as out:
            out.writelines(
                f"| `{spec}` | not judged: {why} | |\n" for spec, why in unjudged.items()
            )
    print(f"{len(rows) - len(survivors)} of {len(rows)} wrong fixes killed"
          + (f"; surviving: {', '.join(survivors)}" if survivors else "")
          + (f"; {len(unjudged)} not judged (no OpenCL device)" if unjudged else "")
          + (f"; {len(errored)} with no verdict" if errored else ""))  # fmt: skip
    if errored:
        print(f"wrong_fixes: error: {len(errored)} run(s) ended without a verdict (above)",
              file=sys.stderr)  # fmt: skip
        return 2
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
