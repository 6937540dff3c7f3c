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
"""Measure the README's two figures, test.sh and .ci/run, as ratios to ``import tvm``.

    python scripts/measure_speed.py [--rev REV ...] [--no-ci] [--keep DIR]

For each REV (default: HEAD) of this repository: a fresh clone of it into a scratch folder,
then, with progress on stderr,

* ``.ci/run`` there (what CI runs on a fresh machine: set-up of both virtualenvs included;
  skipped with ``--no-ci``, which sets up with scripts/setup.sh instead),
* ``scripts/test.sh`` there, set up already,
* a bare ``import tvm`` of its .venv, the median of five, before and after.

The times are wall-clock seconds; each is also given as a multiple of ``import tvm`` measured
in the same run, so that runs on machines of different speed compare. Exit 0 when every
command passed, 1 when one failed (its row says so), 2 with a one-line error when it cannot
run (an unknown revision, no git).
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class MeasureError(Exception):
    """Cannot measure; the message is the one-line reason."""


def _git(*args, cwd=ROOT):
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        raise MeasureError(f"git {' '.join(args)}: {last}")
    return proc.stdout.strip()


def _timed(cmd, cwd, what):
    """(wall seconds, CPU seconds of the children, exit code) of ``cmd``."""
    print(f"... {what}", file=sys.stderr, flush=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"    {wall:.1f} s, exit {proc.returncode}", file=sys.stderr, flush=True)
    return wall, cpu, proc.returncode


def _import_tvm(python):
    times = []
    for _ in range(5):
        start = time.monotonic()
        subprocess.run([python, "-c", "import tvm"], check=True, capture_output=True)
        times.append(time.monotonic() - start)
    return statistics.median(times)


def measure(rev, scratch, ci):
    commit = _git("rev-parse", "--short", f"{rev}^{{commit}}")
    clone = scratch / commit
    _git("clone", "-q", "--no-checkout", str(ROOT), str(clone))
    _git("checkout", "-q", commit, cwd=clone)
    row = {"rev": rev, "commit": commit, "failed": []}
    if ci:
        row["ci"], row["ci_cpu"], rc = _timed(["bash", ".ci/run"], clone, f"{commit}: .ci/run")
        if rc:
            row["failed"].append(".ci/run")
    else:
        for args in ([], ["--tirx"]):
            subprocess.run(["bash", "scripts/setup.sh", *args], cwd=clone, check=True,
                           capture_output=True)  # fmt: skip
    python = str(clone / ".venv" / "bin" / "python")
    first = _import_tvm(python)
    row["test"], row["test_cpu"], rc = _timed(
        ["bash", "scripts/test.sh"], clone, f"{commit}: scripts/test.sh"
    )
    if rc:
        row["failed"].append("test.sh")
    row["import"] = statistics.median([first, _import_tvm(python)])
    return row


def _cell(row, key):
    if key not in row:
        return "-"
    return f"{row[key]:.0f} s ({row[key] / row['import']:.0f}x; CPU {row[key + '_cpu']:.0f} s)"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", action="append", default=[], help="a revision (repeatable)")
    parser.add_argument("--no-ci", action="store_true", help="do not time .ci/run")
    parser.add_argument("--keep", type=Path, help="keep the clones in this folder")
    args = parser.parse_args(argv)
    if shutil.which("git") is None:
        print("measure_speed: error: git not found", file=sys.stderr)
        return 2
    scratch = args.keep or Path(tempfile.mkdtemp(prefix="measure-speed-"))
    scratch.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        for rev in args.rev or ["HEAD"]:
            rows.append(measure(rev, scratch, not args.no_ci))
    except (MeasureError, subprocess.CalledProcessError) as err:
        print(f"measure_speed: error: {err}", file=sys.stderr)
        return 2
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"{os.cpu_count()} cores; times as multiples of a bare `import tvm` in the same run")
    print("| revision | import tvm | scripts/test.sh | .ci/run (set-up included) |")
    print("|---|---|---|---|")
    for row in rows:
        failed = f" (FAILED: {', '.join(row['failed'])})" if row["failed"] else ""
        print(f"| `{row['rev']}` ({row['commit']}){failed} | {row['import']:.2f} s "
              f"| {_cell(row, 'test')} | {_cell(row, 'ci')} |")  # fmt: skip
    return 1 if any(row["failed"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
