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
"""Reproducer: VerifyMemory never rejects host access to device memory inside tvm.compile.

    python bugs/verify_memory/probe.py            # evidence, no GPU needed
    python bugs/verify_memory/probe.py --check    # exit 1 when the bug reproduces
    python bugs/verify_memory/probe.py --run-gpu  # also run the host store on a GPU
                                                            # (child process; it may crash)

Layers probed:
* analysis     tvm.tirx.analysis.verify_memory on a cuda function in the shape the pipeline
               gives the verifier (parameters rebound by ``T.decl_buffer(..., data=B.data)``)
               whose host part stores into an argument buffer: must return False.
* tvm.compile  tvm.compile(..., target="cuda") of a host store into an argument buffer before
               a kernel launch, and of an unbound kernel: each must raise VerifyMemory's
               "... is directly accessed by host memory ... Did you forget to bind?".
* gpu run      (--run-gpu) the host-store function called on a CUDA device, in a child
               process: a crash or a silent host write into device memory.

Exit codes: 0 after printing; 1 with --check when the bug reproduces; 2 with a one-line
reason when it cannot run (no TVM, no cuda target) or is given an unknown argument.
"""

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
import probe_common as common

BUG = "verify_memory"

with common.needs_tvm(BUG, "tvm"):
    import tvm
    from tvm.script import ir as I
    from tvm.script import tirx as T

N = 8
VERIFIER_TEXT = "is directly accessed by host memory"


def host_store_module():
    """The report's host store into a parameter before a launch (the proof tests reuse it)."""

    @I.ir_module
    class HostStore:
        @T.prim_func
        def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
            C[0] = T.float32(1.0)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i]

    return HostStore


def unbound_module():
    """The report's kernel loop bound to no thread (the proof tests reuse it)."""

    @I.ir_module
    class Unbound:
        @T.prim_func
        def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
            for i in range(N):
                C[i] = B[i]

    return Unbound


def _pipeline_shaped_functions():
    """The host store as the verifier sees it in the pipeline, and on the parameter itself."""

    @T.prim_func
    def through_alias(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        B_1 = T.decl_buffer((N,), data=B.data)
        C_1 = T.decl_buffer((N,), data=C.data)
        C_1[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", N) as tx:
            C_1[tx] = B_1[tx]

    @T.prim_func
    def on_parameter(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        C[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", N) as tx:
            C[tx] = B[tx]

    cuda = tvm.target.Target("cuda", host="llvm")
    return through_alias.with_attr("target", cuda), on_parameter.with_attr("target", cuda)


def _row(layer, status, evidence):
    return common.finding(BUG, layer, status, evidence)


def probe_analysis():
    alias, param = _pipeline_shaped_functions()
    verify = tvm.tirx.analysis.verify_memory
    if verify(param):
        return _row(
            "analysis",
            "untestable",
            "verify_memory accepts even a host store on the parameter itself: "
            "this verifier works differently",
        )
    if verify(alias):
        return _row(
            "analysis",
            "present",
            "verify_memory(host store through `C_1 = T.decl_buffer(..., data=C.data)`) is True; "
            "on `C` itself it is False",
        )
    return _row("analysis", "fixed", "verify_memory rejects the host store through the alias")


def _compile_outcome(mod):
    """'silent', 'rejected' (with the verifier's message) or the unexpected error."""
    try:
        tvm.compile(mod, target="cuda")
    except RuntimeError as err:
        if VERIFIER_TEXT in str(err):
            return "rejected", str(err).splitlines()[1].strip()
        return "error", common.first_line(err)
    except Exception as err:
        return "error", common.first_line(err)
    return "silent", ""


def probe_compile():
    outcomes = {
        "host store before launch": _compile_outcome(host_store_module()),
        "unbound kernel": _compile_outcome(unbound_module()),
    }
    errors = {k: v for k, (s, v) in outcomes.items() if s == "error"}
    if errors:
        return _row("tvm.compile", "untestable", "; ".join(f"{k}: {v}" for k, v in errors.items()))
    silent = [k for k, (s, _) in outcomes.items() if s == "silent"]
    if silent:
        return _row(
            "tvm.compile",
            "present",
            f"tvm.compile(target='cuda') accepts: {', '.join(silent)} (no VerifyMemory error)",
        )
    message = outcomes["host store before launch"][1]
    return _row("tvm.compile", "fixed", f"both rejected: {message}")


_CHILD_CODE = """
import sys
sys.path.insert(0, {here!r})
import numpy as np
import tvm
import probe as repro  # this file, bugs/verify_memory/probe.py
try:
    lib = tvm.compile(repro.host_store_module(), target="cuda")
except RuntimeError as err:
    print("REJECTED", str(err).splitlines()[1].strip(), flush=True)
    sys.exit(0)
if not tvm.cuda(0).exist:
    print("NODEVICE", flush=True)
    sys.exit(0)
dev = tvm.cuda(0)
b = tvm.runtime.tensor(np.arange(repro.N, dtype="float32"), dev)
c = tvm.runtime.tensor(np.zeros(repro.N, dtype="float32"), dev)
print("CALLING", flush=True)
lib(b, c)
dev.sync()
print("RAN", c.numpy().tolist(), flush=True)
"""


def probe_gpu_run():
    import os
    import signal

    here = os.path.dirname(os.path.abspath(__file__))
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD_CODE.format(here=here)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return _row("gpu run", "present", "the host-store function hung (killed after 300 s)")
    out = proc.stdout
    if "REJECTED" in out:
        return _row("gpu run", "fixed", "not run: tvm.compile rejects it")
    if "NODEVICE" in out:
        return _row("gpu run", "untestable", "no CUDA device")
    if proc.returncode < 0:
        name = signal.Signals(-proc.returncode).name
        return _row("gpu run", "present", f"the host-store function died with {name}")
    if "RAN" in out:
        line = next(x for x in out.splitlines() if x.startswith("RAN"))
        return _row(
            "gpu run",
            "present",
            f"compiled and ran a host write into device memory without an error ({line})",
        )
    tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    return _row("gpu run", "untestable", f"child exited {proc.returncode}: {tail}")


def probe(run_gpu: bool = False) -> list[dict]:
    rows = []
    for layer, func in (("analysis", probe_analysis), ("tvm.compile", probe_compile)):
        try:
            rows.append(func())
        except Exception as err:  # a layer that cannot be probed here
            rows.append(_row(layer, "untestable", f"probe raised {common.first_line(err)}"))
    if run_gpu:
        rows.append(probe_gpu_run())
    return rows


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    status = common.bad_arguments(argv, f"{BUG}/probe.py", ("--check", "--run-gpu", "--json"))
    if status is not None:
        return status
    try:
        tvm.target.Target("cuda")
    except Exception as err:
        print(f"verify_memory/probe.py: no cuda target: {common.first_line(err)}", file=sys.stderr)
        return 2
    rows = probe(run_gpu="--run-gpu" in argv)
    row = "  {layer:<12} {STATUS:<10} {evidence}"
    return common.print_findings(argv, rows, f"tvm {tvm.__version__}", row)


if __name__ == "__main__":
    common.run_main(f"{BUG}/probe.py", main)
