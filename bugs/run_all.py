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
"""Run every bug's reproducer of one TVM line: ``bugs/*/repro.py`` under an interpreter that
imports apache/tvm (``tvm``), ``bugs/*/repro_tirx.py`` under one that imports apache/tvm-tirx
(``tvm_tirx``) and no ``tvm``.

    .venv/bin/python bugs/run_all.py                      # each script on TVM as it is
    .venv/bin/python bugs/run_all.py --reference-fixes    # each with its reference fix
    .venv-tirx/bin/python bugs/run_all.py --json          # {"version", "scripts": {...}}

Each script runs as ``python <script>`` would (``runpy``, ``__main__``), in a fork of this
interpreter after the TVM import, which the scripts then share (a second each saved), two at a
time per core; its exit status and its output are collected: stdout and stderr in one text,
C++ logs included, in the order a terminal shows them (both streams line-buffered), as the
issue texts quote it. With ``--reference-fixes`` a fork first installs its report's fix
(``reference_fixes.install([key])``); a report without one (``bug_reports.NO_REFERENCE_FIX``)
gets every fix of the line instead, and its script must still fail. On apache/tvm a fork then
loads TVM's OpenCL runtime where scripts/opencl_runtime.py built one: a script that launches a
kernel (uint64_scalar's) finds the OpenCL device there, and exits 2 where it finds no device.
Exit 0 after printing.
"""

import argparse
import importlib
import json
import os
import runpy
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # bug_reports, reference_fixes

# the line (apache/tvm, else apache/tvm-tirx) and the scripts of that line; main() loads it
# once, with what its scripts import, before the forks
package, SCRIPT = None, "repro.py"
LINES = (
    ("tvm", ("tvm.relax", "tvm.script.relax", "tvm.script.tirx"), "repro.py"),
    ("tvm_tirx", ("tvm_tirx.script.tirx",), "repro_tirx.py"),
)


def load_line():
    """Import this interpreter's TVM line (apache/tvm, else apache/tvm-tirx) and what its
    scripts import; ImportError naming both when neither imports."""
    global package, SCRIPT
    errors = []
    for name, preload, script in LINES:
        try:
            package = importlib.import_module(name)
            for module in preload:
                importlib.import_module(module)
        except ImportError as err:
            errors.append(f"{name}: {err}")
            continue
        SCRIPT = script
        return package
    raise ImportError("; ".join(errors))


def scripts():
    """{report key: script path} of this line."""
    return {p.parent.name: p for p in sorted(Path(__file__).parent.glob(f"*/{SCRIPT}"))}


def _child(path, fixes, out):
    """In the fork: install ``fixes``, run ``path`` as __main__, exit with its status."""
    os.dup2(out, 1)
    os.dup2(out, 2)
    # one file for both streams, each flushed at every newline as on a terminal: the lines come
    # in the order the script wrote them, PYTHONUNBUFFERED set or not (stdout to a file is
    # block-buffered otherwise, and its lines would follow sys.exit's message on stderr)
    sys.stdout.reconfigure(line_buffering=True)
    sys.stderr.reconfigure(line_buffering=True)
    code = 0
    try:
        if fixes:
            from harness import reference_fixes

            reference_fixes.install(fixes)
            # a script that runs its program in a child interpreter (to survive a crash) gets
            # the same fixes there, as the root conftest gives a test's children
            os.environ["TVM_REFERENCE_FIXES"] = ",".join(fixes)
            site = [str(ROOT / "harness" / "child_site"), str(ROOT)]
            os.environ["PYTHONPATH"] = os.pathsep.join(
                site + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
            )
        if package.__name__ == "tvm":
            # TVM's OpenCL runtime, as the root conftest loads it (built for the wheel, or with
            # a fix's runtime change): a script that launches a kernel finds the device there
            # is (pocl); where none is built, the scripts see no device and say so
            from harness import reference_fixes

            reference_fixes.opencl_runtime().load()
        sys.argv = [str(path)]
        runpy.run_path(str(path), run_name="__main__")
    except SystemExit as stop:  # as the interpreter reports sys.exit(code | message)
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
        code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def fixes_for(key):
    """The reference fixes a script runs under: its report's, or every fix of the line."""
    from harness import reference_fixes

    available = reference_fixes.available()
    return [key] if key in available else list(available)


def run_all(with_fixes, jobs):
    """{key: {"rc": exit status, "output": its stdout and stderr}} of every script of this line."""
    todo = [(key, path, fixes_for(key) if with_fixes else []) for key, path in scripts().items()]
    running, results = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        while todo or running:
            while todo and len(running) < jobs:
                key, path, fixes = todo.pop(0)
                out = os.open(os.path.join(tmp, key), os.O_WRONLY | os.O_CREAT, 0o600)
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    _child(path, fixes, out)
                os.close(out)
                running[pid] = key
            pid, status = os.wait()
            key = running.pop(pid)
            output = Path(tmp, key).read_text(errors="replace")
            results[key] = {"rc": os.waitstatus_to_exitcode(status), "output": output}
    return dict(sorted(results.items()))


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints the usage too)
        print(f"run_all.py: error: {message}", file=sys.stderr)
        sys.exit(2)


def main():
    parser = _Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-fixes", action="store_true", help="install the fixes")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--jobs", type=int, default=2 * (os.cpu_count() or 1), help="scripts run at a time (>= 1)"
    )
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    try:
        load_line()
    except ImportError as err:
        print(
            f"run_all.py: error: neither tvm nor tvm_tirx imports ({err}); run scripts/setup.sh "
            "and use its interpreter",
            file=sys.stderr,
        )
        return 2
    results = run_all(args.reference_fixes, args.jobs)
    if args.json:
        print(json.dumps({"version": package.__version__, "scripts": results}))
        return 0
    for key, result in results.items():
        print(f"== bugs/{key}/{SCRIPT}: exit {result['rc']}")
        print(result["output"].rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
