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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
import probe_common as common

BUG = "narrow_scalar"

with common.needs_tvm(BUG):
    import numpy as np

    import tvm
    from tvm.script import tirx as T

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
    signature = common.kernel_signature(tvm.compile(make(dtype), target="cuda"))
    params = signature.split("main_kernel(", 1)[-1].rstrip(")").split(",")
    scalars = [p.split()[:-1] for p in params if "*" not in p]
    return signature, " ".join(scalars[0]) if scalars else None


def run_in_child(dtype):
    """Call ``dtype``'s case on cuda(0) in a child process: (refused, ok, one-line evidence)."""
    result, failure, proc = common.run_child(__file__, dtype)
    if failure is not None:
        return proc.returncode > 0 and REFUSED in proc.stderr, False, failure
    b = np.arange(N).astype(dtype)
    expected = (b + (np.array(VALUES[dtype], dtype) + np.array(1, dtype))).tolist()
    if result != expected:
        return False, False, f"returned {result}, expected {expected}"
    return False, True, f"returned {result} as numpy does"


def _child(dtype):
    common.call_on_cuda(make(dtype), np.arange(N).astype(dtype), VALUES[dtype])


def _finding(layer, status, evidence):
    return common.finding(BUG, layer, status, evidence)


def probe(run_gpu: bool = False) -> list[dict]:
    """Findings per layer for a narrow T.let scalar read by a cuda kernel."""
    findings = []
    if not tvm.runtime.enabled("llvm"):
        findings.append(_finding("codegen", "untestable", common.NO_LLVM))
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

    def run():
        refused, ok, evidence = run_in_child("float16")
        if refused or ok:
            return _finding("gpu run", "present" if refused else "fixed", evidence)
        # a crash or wrong numbers: something else is wrong, not this report's refusal
        return _finding("gpu run", "untestable", evidence)

    no_device = "the runtime refuses the kernel when it is launched"
    return [*findings, common.gpu_run(BUG, run_gpu, no_device, run)]


def show(run):
    """Per dtype: the kernel signature and its scalar's C type; with ``run``, the float16 call."""
    for dtype in DTYPES:
        signature, ctype = compiled(dtype)
        verdict = "launchable" if ctype in LAUNCHABLE else "the runtime cannot pass it"
        print(f"[{dtype}]")
        print(f"  kernel  : {signature}")
        print(f"  scalar  : {ctype} ({verdict})")
    common.print_gpu_run(run, "gpu run (float16)", lambda: run_in_child("float16")[2], "gpu run")


if __name__ == "__main__":
    common.gpu_script(BUG, probe, _child, show)
