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
"""The reports' device runs on OpenCL (pocl, a CPU device): every launch in a child process.

    python scripts/device_runs.py            # table: report x program x dtype, run on the TVM
                                             # as it is and with the reference fixes
    python scripts/device_runs.py --check    # also exit 1 when a row is not as expected:
                                             # released, the bug shows; fixed, the values are
                                             # right (or the fix's compile-time error)
    python scripts/device_runs.py --markdown # the table as Markdown (the README's)

A run is one child interpreter (``--child ROW...``; it installs the reference fixes when
TVM_REFERENCE_FIXES says so, through harness/child_site) that compiles each row's program
for ``opencl`` (host ``llvm``) and calls it in a fork of its own, so that a crash is the row's
result: ``SIGSEGV``, a launch error (``error: Cannot handle int8 as device function
argument``), the compile-time error of a fix, or the values (``right`` / ``wrong: ...``).
The child never initializes OpenCL itself (forks after that would share pocl's threads), the
forks do. tests/proof/test_device_runs.py asserts on the same runs; scripts/check_tvm.py's
``gpu run`` layers use them where there is no CUDA device.

Rows (a ``bug`` row shows its report's bug on released TVM, a ``control`` row runs right both
ways):
* host_scalar: the report's host-level cell read by one kernel (``cell``), by two kernels
  with a host update between them (``reassigned``), and, control, a cell that kernel 1 writes
  and kernel 2 reads (``kernel_shared``: device memory, as today); at float32, int32, int64,
  uint32 and float64 (where the device has cl_khr_fp64); control, the same with the kernels
  written as module functions that main calls, for every way main hands them the cell
  (``module_*`` of bugs/host_scalar/proof/host_scalar_cases.py), at float32;
* narrow_scalar: a kernel scalar argument of int8, int16, uint8, uint16, bool and float16
  (where the device has cl_khr_fp16: pocl has not); controls int32, float32. bfloat16 is not
  run here: it compiles only with its own report's fix, whose OpenCL tests run it
  (bugs/bfloat16_scalar/proof/test_bfloat16_scalar.py, the upstream OpenCL file);
* uint64_scalar: a uint64 kernel scalar above 2**32 (fixed: right values, from the OpenCL
  runtime built with patch 0007, bugs/uint64_scalar/reference_fix.py); control int64;
* verify_memory: a host store into an argument buffer before a kernel (``C[0] = 1``), and a
  kernel with no thread binding (``C[i] = B[i] + 1`` in a host loop): both must be rejected
  at compile time; released, what running them does (the host reads and writes OpenCL
  buffer descriptors as if they were the data).

Exit codes: 0 after printing (with --check: every row as expected); 1 with --check when a
row is not; 2 with a one-line reason when nothing can run (no OpenCL runtime or device: the
reason says what to install), or on bad arguments. The last line says how many kernels were
launched, or that none was.
"""

import argparse
import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

try:
    import numpy as np

    import tvm
    from tvm.script import tirx as T
except Exception as _err:  # no usable TVM: one line, exit 2
    print(f"device_runs: cannot import tvm: {_err}", file=sys.stderr)
    raise SystemExit(2) from None

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# the bug folders: a bug's programs are its proof tests' cases (bugs/<key>/proof/<key>_cases.py)
BUGS = ROOT / "bugs"
SITE = ROOT / "harness" / "child_site"
N = 8
REFUSED = "as device function argument"
VERIFIER_TEXT = "is directly accessed by host memory"
HOST_DTYPES = ("float32", "int32", "int64", "uint32", "float64")
NARROW_DTYPES = ("int8", "int16", "uint8", "uint16", "bool")
NOT_RUN = {
    ("narrow_scalar", "float16"): "not run: the device has no cl_khr_fp16",
    ("narrow_scalar", "bfloat16"): "not run here: bfloat16_scalar's OpenCL tests run it "
    "(it compiles with that fix only)",
}
# the rows a device runs only with an extension
NEEDS = {"float64": "cl_khr_fp64", "float16": "cl_khr_fp16"}
EVERY = ("cl_khr_fp64", "cl_khr_fp16")
FORKS = 2  # launches at a time
# a fork with no result after HANG_S seconds is killed and its row launched again, up to
# HANG_TRIES times in all (a launch takes well under a second; a fork made beside other
# threads can deadlock, which is no result of the row's program)
HANG_S, HANG_TRIES = 60, 3


def rows(extensions=EVERY):
    """[(row id, report, program, dtype, 'bug' | 'control')], in table order: those a device
    with these OpenCL ``extensions`` can run."""
    found = []
    for program, kind in (("cell", "bug"), ("reassigned", "bug"), ("kernel_shared", "control")):
        for dtype in HOST_DTYPES:
            found.append(("host_scalar", program, dtype, kind))
    # the kernels as module functions, every way main hands them the cell (one dtype: the
    # pointer forms are the dimension here)
    for program in _cases("host_scalar").MODULE_CASES:
        found.append(("host_scalar", program, "float32", "control"))
    for dtype in (*NARROW_DTYPES, "float16"):
        found.append(("narrow_scalar", "param", dtype, "bug"))
    for dtype in ("int32", "float32"):
        found.append(("narrow_scalar", "param", dtype, "control"))
    found += [
        ("uint64_scalar", "param", "uint64", "bug"),
        ("uint64_scalar", "param", "int64", "control"),
    ]
    found += [
        ("verify_memory", "host_store", "float32", "bug"),
        ("verify_memory", "unbound", "float32", "bug"),
    ]
    return [
        (f"{bug}:{program}:{dtype}", bug, program, dtype, kind)
        for bug, program, dtype, kind in found
        if NEEDS.get(dtype, "") in (*extensions, "")
    ]


# ---------------------------------------------------------------------------------------------
# in the child: programs, inputs and expected values per row


def load_script(name):
    """The module of scripts/<name>.py, loaded by its path (a test process that imports this
    file must not get scripts/ on sys.path: scripts/wrong_fixes.py would hide the
    wrong_fixes package)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _cases(bug):
    """The module bugs/<bug>/proof/<bug>_cases.py, imported as the proof tests import it."""
    sys.path.insert(0, str(BUGS / bug / "proof"))
    return __import__(f"{bug}_cases")


def _program(bug, program, dtype):
    """(IRModule, inputs [numpy arrays and scalars], index of the outputs, expected outputs)."""
    if bug == "host_scalar":
        cases = _cases("host_scalar")
        b, c, x = cases.inputs(dtype)
        module = cases.make(program, dtype, target="opencl")
        return module, [b, c, x], (0, 1), list(cases.expected(program, dtype))
    if bug == "narrow_scalar":
        cases = _cases("narrow_scalar")
        b, c, x = cases.inputs(dtype)
        return cases.make(program, dtype), [b, c, x], (1,), [cases.expected(program, dtype)]
    if bug == "uint64_scalar":
        ty = getattr(T, dtype)

        @T.prim_func
        def main(A: T.Buffer((N,), dtype), x: ty):
            for i in T.thread_binding(N, thread="threadIdx.x"):
                A[i] = x

        # beyond 32 bits, so that a runtime that drops the high half shows it
        x = 2**40 + 3 if dtype == "uint64" else -(2**40)
        return tvm.IRModule({"main": main}), [np.zeros(N, dtype), x], (0,), [np.full(N, x, dtype)]
    if program == "host_store":

        @T.prim_func
        def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
            C[0] = T.float32(1.0)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i]

    else:

        @T.prim_func
        def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
            for i in range(N):
                C[i] = B[i] + T.float32(1)

    b = np.arange(N, dtype="float32")
    want = b + np.float32(1 if program == "unbound" else 0)
    return tvm.IRModule({"main": main}), [b, np.zeros(N, "float32")], (1,), [want]


def _first_line(err):
    """``Type: message``: the line that names the bug (a refusal, the verifier's or the uint64
    fix's message) if one does, else the last line (TVM's messages end there)."""
    lines = [x.strip() for x in str(err).strip().splitlines() if x.strip()]
    lines = [x for x in lines if not x.startswith("File ")] or [""]
    keys = (REFUSED, VERIFIER_TEXT, "uint64")
    message = next((x for x in lines if any(k in x for k in keys)), lines[-1])
    return f"{type(err).__name__}: {message}"[:300]


def _launch(lib, inputs, outputs, expected, pipe):
    """In a fork: call ``lib`` on opencl(0), write the result as JSON to ``pipe``."""
    try:
        dev = tvm.opencl(0)
        args = [tvm.runtime.tensor(a, dev) if isinstance(a, np.ndarray) else a for a in inputs]
        lib["main"](*args)
        dev.sync()
        got = [args[i].numpy() for i in outputs]
        right = all(np.array_equal(g, w) for g, w in zip(got, expected))
        result = {"outcome": "right" if right else "wrong", "values": [g.tolist() for g in got]}
        if not right:
            result["expected"] = [w.tolist() for w in expected]
    except Exception as err:  # the row's result: a launch error
        result = {"outcome": "error", "detail": _first_line(err)}
    os.write(pipe, json.dumps(result).encode())
    os._exit(0)


def _child(row_ids):
    reason = load_script("opencl_runtime").load()
    by_id = {r[0]: r for r in rows()}
    env = {k: os.environ.get(k, "") for k in ("TVM_REFERENCE_FIXES", "TVM_WRONG_FIX")}
    print(json.dumps({"env": env, "plugin": reason}), flush=True)
    target = tvm.target.Target("opencl", host="llvm")
    running = {}  # pid -> (row id, read end, start time, launch arguments, tries)

    def launch(row_id, lib, inputs, outputs, expected, tries=1):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            _launch(lib, inputs, outputs, expected, write_end)
        os.close(write_end)
        running[pid] = (row_id, read_end, time.monotonic(), (lib, inputs, outputs, expected), tries)

    def wait_one():
        """(pid, status) of a finished fork; a fork past HANG_S is killed (a deadlock of a fork
        made beside pocl's or TVM's threads, not a row's result: its row is launched again)."""
        while True:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid:
                return pid, status
            now = time.monotonic()
            for pid, (_, _, started, _, _) in running.items():
                if now - started > HANG_S:
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.05)

    def reap(block):
        while running and (block or len(running) >= FORKS):
            pid, status = wait_one()
            row_id, read_end, started, launch_args, tries = running.pop(pid)
            hung = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
            if hung and time.monotonic() - started > HANG_S:
                os.close(read_end)
                if tries < HANG_TRIES:
                    launch(row_id, *launch_args, tries=tries + 1)
                else:
                    print(json.dumps({"row": row_id, "outcome": "hang",
                                      "detail": f"no result in {HANG_S} s, {tries} tries"}),
                          flush=True)  # fmt: skip
                continue
            data = b""
            while select.select([read_end], [], [], 0)[0]:
                chunk = os.read(read_end, 65536)
                if not chunk:
                    break
                data += chunk
            os.close(read_end)
            if os.WIFSIGNALED(status):
                result = {"outcome": "signal", "detail": signal.Signals(os.WTERMSIG(status)).name}
            elif not data:
                result = {"outcome": "error", "detail": f"launch exited {os.WEXITSTATUS(status)}"}
            else:
                result = json.loads(data)
            print(json.dumps({"row": row_id, **result}), flush=True)
            block = block and bool(running)

    for row_id in row_ids:
        _, bug, program, dtype, _ = by_id[row_id]
        mod, inputs, outputs, expected = _program(bug, program, dtype)
        try:
            lib = tvm.compile(mod, target=target)
        except Exception as err:  # the row's result: a compile error (a fix's rejection)
            print(json.dumps({"row": row_id, "outcome": "compile error",
                              "detail": _first_line(err)}), flush=True)  # fmt: skip
            continue
        reap(block=False)
        launch(row_id, lib, inputs, outputs, expected)
    reap(block=True)


# ---------------------------------------------------------------------------------------------
# in the parent


class RunFailed(RuntimeError):
    """The child process failed as a whole (not a row's result)."""


def run(row_ids, fixes=None, python=None):
    """{row id: result} from one child; ``fixes``: the reference fixes it installs (None:
    those of this process's environment, as the root conftest sets them)."""
    env = dict(os.environ)
    if fixes is not None:
        env.pop("TVM_WRONG_FIX", None)
        env["TVM_REFERENCE_FIXES"] = ",".join(fixes)
        if fixes:
            env["PYTHONPATH"] = os.pathsep.join(
                [str(SITE), str(ROOT), *filter(None, [env.get("PYTHONPATH")])]
            )
    proc = subprocess.run(
        [python or sys.executable, __file__, "--child", *row_ids],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = "\n".join(proc.stderr.strip().splitlines()[-5:])
        raise RunFailed(f"device-run child exited {proc.returncode}: {tail}")
    header, results = lines[0], {r.pop("row"): r for r in lines[1:]}
    if header["plugin"]:
        raise RunFailed(header["plugin"])
    missing = [r for r in row_ids if r not in results]
    if missing:
        raise RunFailed(f"device-run child gave no result for {missing}")
    return header, results


def device_info():
    """(description, its extensions) of opencl(0), or (None, the reason there is none).
    Initializes OpenCL in this process."""
    dev, text = load_script("opencl_runtime").device()
    if dev is None:
        return None, text
    return text, _extensions()


def _extensions():
    """The extensions OpenCL device 0 of the first platform lists (clGetDeviceInfo)."""
    import ctypes

    try:
        cl = ctypes.CDLL("libOpenCL.so.1")
    except OSError:
        return ()
    platform, device = ctypes.c_void_p(), ctypes.c_void_p()
    if cl.clGetPlatformIDs(1, ctypes.byref(platform), None) != 0:
        return ()
    if cl.clGetDeviceIDs(platform, 0xFFFFFFFF, 1, ctypes.byref(device), None) != 0:
        return ()
    size = ctypes.c_size_t()
    cl_device_extensions = 0x1030
    if cl.clGetDeviceInfo(device, cl_device_extensions, 0, None, ctypes.byref(size)) != 0:
        return ()
    text = ctypes.create_string_buffer(size.value)
    cl.clGetDeviceInfo(device, cl_device_extensions, size, text, None)
    return tuple(text.value.decode(errors="replace").split())


def expected(row, result, fixed):
    """(as expected?, why): released, a bug row shows the bug and a control row is right;
    fixed, every row is right but the rows a fix rejects at compile time."""
    _, bug, program, dtype, kind = row
    outcome, detail = result["outcome"], result.get("detail", "")
    if kind == "control" or (fixed and bug in ("host_scalar", "narrow_scalar", "uint64_scalar")):
        return outcome == "right", "the values must be right"
    if fixed:  # verify_memory
        return outcome == "compile error" and VERIFIER_TEXT in detail, "VerifyMemory rejects it"
    if bug == "host_scalar":
        return outcome == "signal", "the host writes device memory: a signal"
    if bug in ("narrow_scalar", "uint64_scalar"):
        return outcome == "error" and REFUSED in detail, "the runtime refuses the scalar"
    return outcome != "compile error", "compiles, VerifyMemory silent"


def cell(result):
    """The table's text for one result."""
    outcome = result["outcome"]
    if outcome == "right":
        return "right values"
    if outcome == "wrong":
        got, want = (
            " ".join(f"{v:.3g}" for v in x[-1]) for x in (result["values"], result["expected"])
        )
        return f"wrong values: [{got}] (expected [{want}])"
    if outcome == "signal":
        return result["detail"]
    return f"{outcome}: {result['detail']}"


def launched(results):
    """How many rows reached a launch (a result of the call, not of the compiler)."""
    return sum(1 for r in results.values() if r["outcome"] != "compile error")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        _child(argv[1:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a row is unexpected")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        sys.path.insert(0, str(ROOT))
        from harness import reference_fixes

        description, extensions = device_info()
    except Exception as err:  # a TVM this script cannot drive
        print(f"device_runs: error: {_first_line(err)}", file=sys.stderr)
        return 2
    if description is None:
        print(f"device_runs: no kernel launched: {extensions}")
        return 2
    table = rows(extensions)
    ids = [r[0] for r in table]
    both = {}
    try:
        for mode, fixes in (("released", ()), ("fixed", reference_fixes.available())):
            both[mode] = run(ids, fixes=fixes)[1]
    except (RunFailed, subprocess.SubprocessError) as err:
        print(f"device_runs: no kernel launched: {err}")
        return 2
    bad = []
    header = ["report", "program", "dtype", "kind", "released (TVM as it is)", "reference fixes"]
    lines = []
    for row in table:
        row_id, bug, program, dtype, kind = row
        texts = []
        for mode in ("released", "fixed"):
            ok, why = expected(row, both[mode][row_id], mode == "fixed")
            texts.append(cell(both[mode][row_id]) + ("" if ok else f"  << UNEXPECTED ({why})"))
            if not ok:
                bad.append(f"{row_id} {mode}")
        lines.append([bug, program, dtype, kind, *texts])
    for (bug, dtype), why in NOT_RUN.items():
        if f"{bug}:param:{dtype}" in ids:
            continue
        lines.append([bug, "param", dtype, "bug", why, why])
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        widths = [max(len(x[i]) for x in [header, *lines]) for i in range(4)]
        for line in [header, *lines]:
            head = "  ".join(x.ljust(w) for x, w in zip(line, widths))
            print(f"{head}  {line[4]}  |  {line[5]}")
    count = sum(launched(results) for results in both.values())
    seconds = time.monotonic() - start
    print(
        f"device runs: {count} launches on {description}, each in a child process, released "
        f"and fixed; {len(bad)} row(s) not as expected; {seconds:.0f} s"
    )
    return 1 if args.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
