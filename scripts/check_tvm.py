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
"""Is my TVM affected? Probes the TVM on the Python path for the bug reports.

    python scripts/check_tvm.py            # table of bug x layer: present / fixed / untestable
    python scripts/check_tvm.py --json     # the same, as JSON
    python scripts/check_tvm.py --check    # exit 1 when any bug reproduces (git bisect run)
    python scripts/check_tvm.py --run-gpu  # also run the GPU layers (child processes): on
                                           # CUDA, else on OpenCL (--run-gpu=cuda|opencl)
    python scripts/check_tvm.py --bug <key>  # only some reports (repeatable)

Two lines of TVM are recognized. When ``import tvm`` works and has ``tvm.tirx``, that TVM
is probed for every report. Otherwise, when ``import tvm_tirx`` works (the extracted TIRx
package, apache-tvm-tirx), the reports with a bugs/<key>/probe_tirx.py are probed with it,
written in that package's API, and the others are printed with the reason their probe.toml
states: outside the package (outside: relax is not part of tvm_tirx), or not probed on that
line (not_probed: not affected there, or nothing to run them on).
Neither present nor fixed, they are not counted by --check; --json lists them with their
reasons under "not_applicable". The header names the line:
"TVM <version>" or "TVM TIRx <version> (tvm_tirx, <location>)"; --json has it as "line".

Exit codes: 0 after printing (without --check, or with --check when no bug reproduces);
1 with --check when a bug reproduces; 125 with --check when a selected bug has no testable
layer at all, or when it cannot run (``git bisect run`` then skips the commit); else 2 with a
one-line reason when it cannot run (neither tvm nor tvm_tirx importable, a tvm without TIRx
and no tvm_tirx, a probe that cannot load). On tvm_tirx, ``--check`` with only reports outside
the package selected says so and exits 0 (nothing to reproduce there, and nothing a bisect
should skip).
What TVM's C++ side logs while probing goes to <tmp>/check_tvm_native.log.

``--run-gpu`` picks the device of the ``gpu run`` layers: a CUDA device where there is one
(the reproducers' own runs), else an OpenCL device (TVM's OpenCL runtime,
scripts/opencl_runtime.py, on e.g. pocl): the rows scripts/device_runs.py has for the
reports it runs, in a child process that installs the fixes
this process's environment names (TVM_REFERENCE_FIXES); each layer's evidence names the
device. ``--run-gpu=cuda`` / ``--run-gpu=opencl`` insist on one. On the tvm_tirx line only
CUDA: that wheel has no OpenCL runtime, and TVM's OpenCL runtime does not compile against its
headers (its DeviceAPI has no AllocDataSpace / FreeDataSpace).

The reports are the registry's (bug_reports.py: a retired report, its folder gone, is left
out); each one's title is the one its bugs/<key>/probe.toml states, and its probe probe.py's
``probe()`` (on tvm_tirx bugs/<key>/probe_tirx.py's): this script only gathers and prints them.
"""

import argparse
import contextlib
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUG_DIR = ROOT / "bugs"  # bugs/<key>/probe.py, bugs/<key>/probe_tirx.py
# the registry (bug_reports.py), device_runs, and what the probes share (probe_common,
# probe_tirx_common): importable from any working directory, ``git bisect run`` too
sys.path[:0] = [str(ROOT), str(HERE), str(BUG_DIR)]
from probe_common import facts  # noqa: E402

from bug_reports import BUG_REPORTS  # noqa: E402


def tirx_reason(key, name):
    """Why bugs/<key>/probe.toml says the tvm_tirx line is not probed: ``name`` is ``outside``
    (the package lacks what the bug is in) or ``not_probed`` (None where it says neither)."""
    return facts(key)["tvm_tirx"].get(name)


# report key (the registry's, of a folder still here: a retired report is neither listed nor
# probed) -> title (its probe.toml's, read without running the probe: it imports TVM, and on the
# tvm_tirx line it cannot)
BUGS = {key: facts(key)["title"] for key in BUG_REPORTS}
# tvm_tirx line: the reports probed there (a bugs/<key>/probe_tirx.py)
TIRX_PROBES = tuple(key for key in BUGS if (BUG_DIR / key / "probe_tirx.py").is_file())
# tvm_tirx line: the reports not probed there, with the reason their probe.toml states (printed,
# never counted): outside where the package lacks what the bug is in, not_probed where it is
# not affected, or there is nothing to run it on
OUTSIDE_PACKAGE = {key: reason for key in BUGS if (reason := tirx_reason(key, "outside"))}
TIRX_OUTSIDE = {
    key: OUTSIDE_PACKAGE.get(key) or tirx_reason(key, "not_probed")
    for key in BUGS
    if key not in TIRX_PROBES
}
STATUSES = ("present", "fixed", "untestable")
BISECT_SKIP = 125
DEVICES = ("auto", "cuda", "opencl")
TIRX_NO_OPENCL = (
    "no OpenCL on the tvm_tirx line: its wheel has no OpenCL runtime, and TVM's OpenCL runtime "
    "does not compile against its headers (its DeviceAPI has no AllocDataSpace/FreeDataSpace)"
)


class CannotRun(Exception):
    """The check cannot run at all; the message is the one-line reason."""


def tvm_identity(tvm):
    """Version, location and git commit (only when the package is a TVM checkout's
    python/tvm, not when it merely sits inside some other repository, e.g. a venv).
    The same for tvm_tirx (a checkout's python/tvm_tirx or tvm_tirx)."""
    location = Path(tvm.__file__).resolve().parent
    line = tvm.__name__
    commit = "unknown (not a TVM source checkout, e.g. a wheel)"

    def git(*args):
        try:
            out = subprocess.run(
                ["git", "-C", str(location), *args],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    if top and location in (Path(top).resolve() / "python" / line, Path(top).resolve() / line):
        commit = git("log", "-1", "--format=%H %cs") or commit
    return {"line": line, "version": tvm.__version__, "location": str(location), "commit": commit}


def load_tvm():
    """The TVM to probe: tvm when it imports and has tvm.tirx, else tvm_tirx."""
    try:
        import tvm
    except Exception as err:  # any import failure means there is no usable TVM
        tvm, tvm_error = None, f"{type(err).__name__}: {err}"
    if tvm is not None:
        try:
            importlib.import_module("tvm.tirx")
            return tvm
        except ImportError:
            tvm_error = None
    try:
        import tvm_tirx
    except Exception as err:
        if tvm_error is None:  # a tvm without TIRx, and no tvm_tirx either
            raise CannotRun(
                f"tvm {tvm.__version__} at {Path(tvm.__file__).parent} has no tvm.tirx: too "
                "old for these reports (TIRx landed in 2026), and there is no tvm_tirx"
            ) from None
        raise CannotRun(
            f"cannot import tvm ({tvm_error}) nor tvm_tirx ({type(err).__name__}: {err})"
        ) from None
    return tvm_tirx


@contextlib.contextmanager
def native_stderr_to(path):
    """Send what TVM's C++ side logs on stderr (e.g. "Unable to detect CUDA version" on a
    machine without CUDA, once per compile) to ``path`` instead of the terminal."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "wb") as sink:
        os.dup2(sink.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def pick_device(choice, line="tvm"):
    """("cuda" | "opencl", its description) for ``--run-gpu=choice``, or (None, why none)."""
    tvm = importlib.import_module(line)
    has_cuda = tvm.cuda(0).exist
    if choice in ("auto", "cuda") and has_cuda:
        return "cuda", "CUDA"
    no_cuda = "" if choice == "opencl" else "no CUDA device here"
    if line != "tvm":
        return None, "; ".join(filter(None, [no_cuda, TIRX_NO_OPENCL if choice != "cuda" else ""]))
    if choice == "cuda":
        return None, no_cuda
    import device_runs

    description, why = device_runs.device_info()
    if description is None:
        return None, "; ".join(filter(None, [no_cuda, why]))
    return "opencl", description


def opencl_layers(bugs):
    """One ``gpu run`` finding per report in ``bugs`` that scripts/device_runs.py has rows of."""
    import device_runs

    description, extensions = device_runs.device_info()
    table = [r for r in device_runs.rows(extensions) if r[1] in bugs]
    _, results = device_runs.run([r[0] for r in table])
    findings = {}
    for bug in dict.fromkeys(r[1] for r in table):
        mine = [r for r in table if r[1] == bug]
        shown = [
            r for r in mine if r[4] == "bug" and device_runs.expected(r, results[r[0]], False)[0]
        ]
        right = [r for r in mine if device_runs.expected(r, results[r[0]], True)[0]]
        controls = [r for r in mine if r[4] == "control"]
        broken = [r for r in controls if results[r[0]]["outcome"] != "right"]
        shows = "; ".join(f"{r[2]} {r[3]}: {device_runs.cell(results[r[0]])}" for r in shown[:2])
        if broken:
            status = "untestable"
            evidence = f"control {broken[0][0]}: {device_runs.cell(results[broken[0][0]])}"
        elif shown:
            status = "present"
            evidence = f"{len(shown)} of {len(mine) - len(controls)} programs show it: {shows}"
        elif len(right) == len(mine):
            rejected = sum(results[r[0]]["outcome"] == "compile error" for r in mine)
            status, evidence = (
                "fixed",
                f"all {len(mine)} programs as fixed: "
                + (
                    f"{len(mine) - rejected} right values, {rejected} rejected at compile time"
                    if rejected
                    else "right values"
                ),
            )
        else:
            odd = next(r for r in mine if r not in right)
            status = "untestable"
            evidence = f"{odd[0]}: neither the bug nor fixed: {device_runs.cell(results[odd[0]])}"
        evidence = f"on {description}: {evidence}"
        findings[bug] = {"bug": bug, "layer": "gpu run", "status": status, "evidence": evidence}
    return findings


def _with_device_layers(rows, bugs, device, why):
    """Replace (or add) the ``gpu run`` finding of each report: the OpenCL runs' where the
    device is OpenCL, the reason none ran where there is no device."""
    if device == "cuda":
        return rows
    if device == "opencl":
        layers = opencl_layers(bugs)  # the reports device_runs has rows of
    else:
        layers = {
            b: {"bug": b, "layer": "gpu run", "status": "untestable", "evidence": why}
            for b in bugs
            if any(r["bug"] == b and r["layer"] == "gpu run" for r in rows)
        }
    kept = [r for r in rows if not (r["layer"] == "gpu run" and r["bug"] in layers)]
    for bug, layer in layers.items():
        title = next((r["title"] for r in rows if r["bug"] == bug), BUGS[bug])
        at = max((i for i, r in enumerate(kept) if r["bug"] == bug), default=len(kept) - 1)
        kept.insert(at + 1, {**layer, "title": title})
    return kept


def load_probe(key, line="tvm"):
    """The probe module of ``key``: bugs/<key>/probe.py, or on tvm_tirx bugs/<key>/probe_tirx.py."""
    file = "probe_tirx.py" if line == "tvm_tirx" else "probe.py"
    name = f"{file.removesuffix('.py')}_{key}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BUG_DIR / key / file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return sys.modules[name]


def run_probes(bugs, run_gpu, line="tvm"):
    """The findings of ``bugs``; ``run_gpu``: None, or the device choice of --run-gpu."""
    device, why = pick_device(run_gpu, line) if run_gpu else (None, None)
    rows = []
    for key in bugs:
        title = BUGS[key]
        module_name = f"bugs/{key}/probe.py"
        if line == "tvm_tirx":
            if key not in TIRX_PROBES:
                continue  # not probed there (TIRX_OUTSIDE): printed, not probed
            module_name = f"bugs/{key}/probe_tirx.py"
        try:
            module = load_probe(key, line)
        except SystemExit as err:  # a reproducer refusing to load exits 2 with its reason
            raise CannotRun(f"{module_name} cannot load (exit {err.code})") from None
        except Exception as err:
            raise CannotRun(f"{module_name} cannot load: {type(err).__name__}: {err}") from None
        try:
            findings = module.probe(run_gpu=device == "cuda")
        except Exception as err:  # a probe that breaks is reported, not hidden
            findings = [
                {
                    "bug": key,
                    "layer": "probe",
                    "status": "untestable",
                    "evidence": f"probe raised {type(err).__name__}: {str(err).splitlines()[0]}",
                }
            ]
        for finding in findings:
            if finding.get("status") not in STATUSES:
                raise CannotRun(f"{module_name} returned a bad status: {finding!r}")
            rows.append({**finding, "bug": key, "title": title})
    return _with_device_layers(rows, bugs, device, why) if run_gpu else rows


def print_table(identity, rows, outside=None):
    if identity["line"] == "tvm_tirx":
        print(f"TVM TIRx {identity['version']}  (tvm_tirx, {identity['location']})")
    else:
        print(f"TVM {identity['version']}  ({identity['location']})")
    print(f"commit: {identity['commit']}")
    width = max(len(r["layer"]) for r in rows) if rows else 5
    current = None
    for row in rows:
        if row["bug"] != current:
            current = row["bug"]
            print(f"\n[{row['bug']}] {row['title']}")
        print(f"  {row['layer']:<{width}}  {row['status'].upper():<10}  {row['evidence']}")
    for key, reason in (outside or {}).items():
        print(f"\n[{key}] {BUGS[key]}\n  {reason}")
    print()
    for key in dict.fromkeys(r["bug"] for r in rows):
        print(f"{key}: {verdict([r for r in rows if r['bug'] == key])}")
    for key in outside or {}:
        print(f"{key}: {outside_verdict(key)}")


OUTSIDE_VERDICT = "not applicable (outside tvm_tirx: no relax)"
NOT_PROBED_VERDICT = "not probed on tvm_tirx (the reason above)"


def outside_verdict(key):
    """The verdict of a report of TIRX_OUTSIDE: outside the package (OUTSIDE_PACKAGE), or not
    probed there."""
    return OUTSIDE_VERDICT if key in OUTSIDE_PACKAGE else NOT_PROBED_VERDICT


def verdict(rows):
    statuses = {r["status"] for r in rows}
    if "present" in statuses:
        return "AFFECTED"
    if "fixed" in statuses:
        return "not affected" + (
            " (some layers untestable here)" if "untestable" in statuses else ""
        )
    return "cannot tell here (no layer testable)"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--check", action="store_true", help="exit 1 when any bug reproduces")
    parser.add_argument(
        "--run-gpu",
        nargs="?",
        const="auto",
        choices=DEVICES,
        help="also run the GPU layers: on CUDA, else OpenCL (auto), or on the one named",
    )
    parser.add_argument(
        "--bug", action="append", choices=sorted(BUGS), help="only this report (repeatable)"
    )
    args = parser.parse_args(argv)
    bugs = args.bug or list(BUGS)
    try:
        tvm = load_tvm()
        identity = tvm_identity(tvm)
        line = identity["line"]
        # on tvm_tirx, the selected reports outside the package: printed, never probed
        outside = {k: why for k, why in TIRX_OUTSIDE.items() if k in bugs and line == "tvm_tirx"}
        log = Path(tempfile.gettempdir()) / "check_tvm_native.log"
        with native_stderr_to(log):
            rows = run_probes(bugs, args.run_gpu, line)
    except CannotRun as err:
        print(f"check_tvm: error: {err}", file=sys.stderr)
        # under ``git bisect run`` (--check), a commit whose TVM cannot be imported is
        # skipped (125), not judged bad
        return BISECT_SKIP if args.check else 2
    probed = [k for k in bugs if k not in outside]
    if args.json:
        verdicts = {k: verdict([r for r in rows if r["bug"] == k]) for k in probed}
        verdicts.update({k: outside_verdict(k) for k in outside})
        report = {"line": line, "tvm": identity, "findings": rows, "verdicts": verdicts}
        if outside:
            report["not_applicable"] = outside
        print(json.dumps(report, indent=2))
    else:
        print_table(identity, rows, outside)
    if not args.check:
        return 0
    if any(r["status"] == "present" for r in rows):
        return 1
    if any(all(r["status"] == "untestable" for r in rows if r["bug"] == k) for k in probed):
        return BISECT_SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
