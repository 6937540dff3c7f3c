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
"""Reproducer: a kernel scalar narrower than 32 bits compiles into a kernel parameter that
the GPU runtimes cannot pass (narrow kernel scalar report).

    python bugs/narrow_scalar/probe.py          # evidence, no GPU needed
    python bugs/narrow_scalar/probe.py --run    # also call the float16 case on
                                                          # cuda(0), in a child process
    python bugs/narrow_scalar/probe.py --check  # exit 1 if the bug reproduces

``C[i] = B[i] + c`` with ``c: T.let[ty] = x + 1`` computed on the host from the argument
``x`` (bool: ``c = not x``, ``C[i] = B[i] != c``), for the six narrow dtypes that compile
(float16, int8, int16, uint8, uint16, bool; bfloat16 host scalars do not compile at all).
Printed per dtype: the kernel signature and whether its scalar parameter is one of the types
the runtime passes (src/runtime/pack_args.h: int32, uint32, int64, float32, float64).

Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line
reason when it cannot run (no TVM, no TIRx, no LLVM). ``probe(run_gpu)`` returns the findings
per layer (codegen, gpu run) for scripts/check_tvm.py.
"""

import functools
import json
import signal
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

try:
    import numpy as np
    from probe_common import bad_arguments, run_main

    import tvm
    from tvm.script import tirx as T
except Exception as err:  # no usable TVM: one line, exit 2
    print(f"narrow_scalar/probe.py: cannot import tvm/tirx: {err}", file=sys.stderr)
    raise SystemExit(2) from None

BUG = "narrow_scalar"
N = 8
DTYPES = ("float16", "int8", "int16", "uint8", "uint16", "bool")
VALUES = {"float16": 1.5, "int8": -100, "int16": -300, "uint8": 200, "uint16": 40000}
# C types of the kernel scalar parameters the runtime passes (int32, uint32, int64, float32,
# float64), as the CUDA code generator prints them
LAUNCHABLE = ("int", "uint", "int64_t", "float", "double")
REFUSED = "as device function argument"  # the runtime's "Cannot handle <dtype> as ..."
Tensor = getattr(T, "Tensor", None) or T.Buffer  # spelled T.Tensor on TVM main after #20519


def make(dtype):
    """``C[i] = B[i] + c`` on cuda threads, ``c`` a ``dtype`` T.let computed on the host."""
    if dtype == "bool":

        @T.prim_func
        def main(B: Tensor((N,), "bool"), C: Tensor((N,), "bool"), x: T.bool):
            c: T.let[T.bool] = T.Not(x)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] != c

    else:
        ty = getattr(T, dtype)

        @T.prim_func
        def main(B: Tensor((N,), dtype), C: Tensor((N,), dtype), x: ty):
            c: T.let[ty] = x + ty(1)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + c

    return tvm.IRModule({"main": main})


@functools.cache
def compiled(dtype):
    """(kernel signature, C type of its scalar parameter or None)."""
    lib = tvm.compile(make(dtype), target="cuda")
    cuda = lib.mod.imports[0].inspect_source()
    signature = next(x.strip() for x in cuda.splitlines() if "__global__" in x).rstrip(";{ ")
    params = signature.split("main_kernel(", 1)[-1].rstrip(")").split(",")
    scalars = [p.split()[:-1] for p in params if "*" not in p]
    return signature, " ".join(scalars[0]) if scalars else None


def run_in_child(dtype):
    """Call ``dtype``'s case on cuda(0) in a child process: (refused, ok, one-line evidence)."""
    proc = subprocess.run(
        [sys.executable, __file__, "--child", dtype],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if proc.returncode < 0:
        return False, False, f"killed by {signal.Signals(-proc.returncode).name} at the call"
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return REFUSED in proc.stderr, False, f"child exited {proc.returncode}: {tail}"
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    b = np.arange(N).astype(dtype)
    expected = (b + (np.array(VALUES[dtype], dtype) + np.array(1, dtype))).tolist()
    if result != expected:
        return False, False, f"returned {result}, expected {expected}"
    return False, True, f"returned {result} as numpy does"


def _child(dtype):
    lib = tvm.compile(make(dtype), target="cuda")
    dev = tvm.cuda(0)
    b = tvm.runtime.tensor(np.arange(N).astype(dtype), dev)
    c = tvm.runtime.empty((N,), dtype, dev)
    lib["main"](b, c, VALUES[dtype])
    dev.sync()
    print(json.dumps(c.numpy().tolist()), flush=True)


def _finding(layer, status, evidence):
    return {"bug": BUG, "layer": layer, "status": status, "evidence": evidence}


def probe(run_gpu: bool = False) -> list[dict]:
    """Findings per layer for a narrow T.let scalar read by a cuda kernel."""
    findings = []
    if not tvm.runtime.enabled("llvm"):
        evidence = "this TVM has no LLVM: the host module cannot be built"
        findings.append(_finding("codegen", "untestable", evidence))
    else:
        refused = []
        for dtype in DTYPES:
            _, ctype = compiled(dtype)
            if ctype not in LAUNCHABLE:
                refused.append(f"{dtype} -> {ctype}")
        signature, _ = compiled("float16")
        evidence = "float16 T.let: main_kernel" + signature.split("main_kernel", 1)[-1]
        if refused:
            evidence += f" | kernel scalars the runtime cannot pass: {', '.join(refused)}"
        else:
            evidence += f" | {', '.join(DTYPES)}: every kernel scalar is 32 or 64 bits"
        findings.append(_finding("codegen", "present" if refused else "fixed", evidence))

    if not run_gpu:
        evidence = "not requested (--run, or probe(run_gpu=True), calls it on cuda(0))"
        findings.append(_finding("gpu run", "untestable", evidence))
    elif not tvm.cuda(0).exist:
        evidence = "no CUDA device here: the runtime refuses the kernel when it is launched"
        findings.append(_finding("gpu run", "untestable", evidence))
    else:
        refused, ok, evidence = run_in_child("float16")
        if refused or ok:
            findings.append(_finding("gpu run", "present" if refused else "fixed", evidence))
        else:  # a crash or wrong numbers: something else is wrong, not this report's refusal
            findings.append(_finding("gpu run", "untestable", evidence))
    return findings


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        _child(argv[1])
        return 0
    status = bad_arguments(argv, f"{BUG}/probe.py", ("--check", "--run"))
    if status is not None:
        return status
    if not tvm.runtime.enabled("llvm"):
        print(
            "narrow_scalar/probe.py: this TVM has no LLVM (USE_LLVM=OFF): "
            "cannot build the host module",
            file=sys.stderr,
        )
        return 2
    run = "--run" in argv
    print("tvm", tvm.__version__)
    for dtype in DTYPES:
        signature, ctype = compiled(dtype)
        verdict = "launchable" if ctype in LAUNCHABLE else "the runtime cannot pass it"
        print(f"[{dtype}]")
        print(f"  kernel  : {signature}")
        print(f"  scalar  : {ctype} ({verdict})")
    if run:
        if tvm.cuda(0).exist:
            print(f"gpu run (float16): {run_in_child('float16')[2]}")
        else:
            print("gpu run: no CUDA device here")
    findings = probe(run_gpu=run)
    print()
    for f in findings:
        print(f"{f['layer']:<9} {f['status'].upper():<10} {f['evidence']}")
    if "--check" in argv and any(f["status"] == "present" for f in findings):
        return 1
    return 0


if __name__ == "__main__":
    run_main(f"{BUG}/probe.py", main)
