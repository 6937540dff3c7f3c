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
"""Run the suite once per wrong fix of wrong_fixes/ and report which tests kill each.

    python scripts/wrong_fixes.py [--list] [--only REPORT[:NAME] ...] [--markdown FILE]
                                  [--all-killers] [--all-files] [--jobs N] [--tvm-tirx]
                                  [-- PYTEST ARGS]

For every wrong fix (a small, deliberately wrong variant of a reference fix) it runs
``pytest FILES --wrong-fix=REPORT:NAME``: that wrong fix is installed and the report's bug
tests must pass, so every test that fails has caught the mistake. FILES are the test files
of tests/python and tests/proof that hold the report's tests (its xfail phrase or its key
in the file), or all of them with ``--all-files``. A wrong fix counts as killed when at
least two tests fail, at least one of them in an upstream file (tests/python). The upstream
files run first and each run stops at its second failure, which gives the same verdict;
``--all-killers`` lists every killing test instead. Runs go ``--jobs`` at a time. Only test
failures count: a collection or fixture error is not a kill, it stops the run.

``--tvm-tirx`` does the same on the apache/tvm-tirx line: the wrong fixes of the reports
whose reference fix works there (``reference_fixes.ON_TVM_TIRX``; not those a module lists in
``NOT_ON_TVM_TIRX``, which no program can tell apart there), over
tvm-tirx/tests/python (all upstream), run by .venv-tirx's interpreter (or TIRX_PYTHON).

Prints a table (wrong fix, what it models, killing tests); ``--markdown FILE`` writes the
same table as Markdown. Exit codes: 0 every wrong fix killed; 1 a wrong fix survived;
2 cannot run (bad option, unknown wrong fix, a run that errored).
"""

import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import wrong_fixes  # noqa: E402
from bug_reports import BUG_REPORTS  # noqa: E402

SUITE = ["tests/python", "tests/proof"]
UPSTREAM = "tests/python/"
MIN_KILLERS = 2
# --tvm-tirx: the apache/tvm-tirx line (its upstream tests, run by .venv-tirx's interpreter)
TIRX_SUITE = ["tvm-tirx/tests/python"]
TIRX_UPSTREAM = "tvm-tirx/tests/python/"


def files_of(report, suite=SUITE):
    """The test files that hold tests of ``report``."""
    phrase, found = BUG_REPORTS[report].lower(), []
    for folder in suite:
        for path in sorted((ROOT / folder).rglob("test_*.py")):
            if report in path.name or phrase in path.read_text().lower():
                found.append(str(path.relative_to(ROOT)))
    return found


class RunError(Exception):
    """A run that says nothing about the wrong fix; the message is the reason."""


def killers(spec, files, pytest_args, python=sys.executable):
    """The node ids of the tests in ``files`` that fail with the wrong fix ``spec``."""
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "junit.xml"
        # the files' own order decides which failures come first (upstream files first):
        # plugins that reorder or distribute tests are kept out, so that the verdict of a run
        # that stops at its second failure does not depend on them
        cmd = [python, str(ROOT / "scripts" / "run_pytest.py"), "-p", "no:cacheprovider",
               "-p", "no:randomly", "-p", "no:xdist", "-q", "-o",
               "junit_family=xunit1", f"--junitxml={xml}", f"--wrong-fix={spec}",
               *files, *pytest_args]  # fmt: skip
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
        if proc.returncode not in (0, 1) or not xml.exists():
            tail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or ["no output"]
            raise RunError(f"{spec}: pytest exit {proc.returncode}: {tail[0]}")
        failed, errors = [], []
        for case in ET.parse(xml).iter("testcase"):
            name = f"{case.get('file') or case.get('classname')}::{case.get('name')}"
            if case.find("failure") is not None:
                failed.append(name)
            if case.find("error") is not None:
                errors.append(name)
        if errors:
            raise RunError(f"{spec}: {len(errors)} test(s) errored, e.g. {errors[0]}")
        return failed


def killed(names, upstream_prefix=UPSTREAM):
    upstream = [n for n in names if n.startswith(upstream_prefix)]
    return len(names) >= MIN_KILLERS and bool(upstream)


def short(name):
    path, _, test = name.partition("::")
    return f"{path.removeprefix('tests/')}::{test}"


def tirx_python():
    """The interpreter of the tvm-tirx line: TIRX_PYTHON, else .venv-tirx (setup.sh --tirx)."""
    python = os.environ.get("TIRX_PYTHON") or str(ROOT / ".venv-tirx" / "bin" / "python")
    if not os.access(python, os.X_OK):
        raise RunError(f"no tvm-tirx interpreter {python} (run scripts/setup.sh --tirx)")
    return python


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the wrong fixes and exit")
    parser.add_argument("--only", action="append", default=[], metavar="REPORT[:NAME]")
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown")
    parser.add_argument("--all-files", action="store_true", help="run the whole suite each time")
    parser.add_argument(
        "--all-killers", action="store_true", help="list every killing test, not the first two"
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
    catalogue = wrong_fixes.catalogue()
    suite, upstream, python = SUITE, UPSTREAM, sys.executable
    if args.tvm_tirx:
        import reference_fixes

        suite, upstream = TIRX_SUITE, TIRX_UPSTREAM
        catalogue = {
            (report, name): text
            for (report, name), text in catalogue.items()
            if report in reference_fixes.ON_TVM_TIRX
            and name not in getattr(wrong_fixes._module(report), "NOT_ON_TVM_TIRX", {})
        }
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
    # upstream files come first, so the first MIN_KILLERS failures decide the verdict as
    # all of them would: stop there unless every killing test is wanted
    stop = [] if args.all_killers else [f"--maxfail={MIN_KILLERS}"]

    def run_one(item):
        (report, name), text = item
        spec = f"{report}:{name}"
        start = time.monotonic()
        files = suite if args.all_files else files_of(report, suite)
        names = killers(spec, files, [*stop, *args.pytest_args], python)
        return spec, text, names, time.monotonic() - start

    rows, survivors = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        try:
            results = list(pool.map(run_one, selected.items()))
        except RunError as err:
            print(f"wrong_fixes: error: {err}", file=sys.stderr)
            return 2
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
        head = "killed by" if args.all_killers else "killed by (the first two killing tests)"
        lines = [f"| wrong fix | the mistake it models | {head} |", "|---|---|---|"]
        for spec, text, names, ok in rows:
            tests = "<br>".join(f"`{short(n)}`" for n in names)
            lines.append(f"| `{spec}` | {text} | {tests if ok else '**survives** ' + tests} |")
        args.markdown.write_text("\n".join(lines) + "\n")
    print(f"{len(rows) - len(survivors)} of {len(rows)} wrong fixes killed"
          + (f"; surviving: {', '.join(survivors)}" if survivors else ""))  # fmt: skip
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
