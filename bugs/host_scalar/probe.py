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
"""Reproducer: a host-level scalar of a cuda PrimFunc becomes a device workspace written
from the host (TIRx/CUDA host-level scalar report).

    python bugs/host_scalar/probe.py          # evidence, no GPU needed
    python bugs/host_scalar/probe.py --run    # also call each variant on
                                                                  # cuda(0), in child processes
    python bugs/host_scalar/probe.py --check  # exit 1 if the bug reproduces

``C[i] = B[i] + c`` with ``c = 1.5`` set on the host, four spellings: annotated
(``c: T.float32 = ...``), plain (``c = ...``), ``T.let`` and the constant inline. Printed per
variant: how ``c`` parses, the kernel signature, and the host-side allocation/store lines.

Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line
reason when it cannot run (no TVM, no TIRx, no LLVM). ``probe(run_gpu)`` returns the findings
per layer (parser, lowering, codegen, gpu run) for scripts/check_tvm.py.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
import probe_common as common

BUG = "host_scalar"

with common.needs_tvm(BUG):
    import numpy as np

    import tvm
    from tvm.script import tirx as T

N = 8
VALUE = 1.5
VARIANTS = ("annotated", "plain", "let", "inline")
Tensor = getattr(T, "Tensor", None) or T.Buffer  # spelled T.Tensor on TVM main after #20519


def make(variant):
    """``C[i] = B[i] + c`` on cuda threads, with the host-level ``c`` spelled ``variant``."""
    if variant == "annotated":

        @T.prim_func
        def main(B: Tensor((N,), "float32"), C: Tensor((N,), "float32")):
            c: T.float32 = T.float32(VALUE)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + c

    elif variant == "plain":

        @T.prim_func
        def main(B: Tensor((N,), "float32"), C: Tensor((N,), "float32")):
            c = T.float32(VALUE)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + c

    elif variant == "let":

        @T.prim_func
        def main(B: Tensor((N,), "float32"), C: Tensor((N,), "float32")):
            c: T.let[T.float32] = T.float32(VALUE)
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + c

    else:

        @T.prim_func
        def main(B: Tensor((N,), "float32"), C: Tensor((N,), "float32")):
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i] + T.float32(VALUE)

    return tvm.IRModule({"main": main})


# --------------------------------------------------------------------------------------------
# layers


def parsed(variant):
    """How ``c`` parses: ('cell' | 'binding' | 'inline', the printed line)."""
    mod = make(variant)
    kinds = [type(s).__name__ for s in getattr(mod["main"].body, "seq", [mod["main"].body])]
    line = next((x.strip() for x in mod.script().splitlines() if re.match(r"\s*c\b", x)), "")
    if "AllocBuffer" in kinds:
        return "cell", line
    return ("binding" if "Bind" in kinds else "inline"), line or "(no c: inlined constant)"


def lowered_host_device_access(variant):
    """Lower for cuda (TIR pipeline + host finalization, no codegen); return the
    TVMBackendAllocWorkspace calls with a non-CPU device type whose buffer the host stores."""
    target = tvm.target.Target("cuda", host="llvm")
    from tvm.tirx.build import split_host_device_mods

    mod = tvm.tirx.transform.BindTarget(target)(make(variant))
    pipeline, finalize_host, _ = tvm.tirx.get_default_tir_pipeline(target)
    host_mod, _ = split_host_device_mods(pipeline(mod))
    text = finalize_host()(host_mod).script()
    # printed forms: `c = T.decl_buffer((1,), data=T.TVMBackendAllocWorkspace(2, ...` / `c[0] = ...`
    found = []
    for name, device in re.findall(
        r"(\w+) = T\.decl_buffer\(.*?TVMBackendAllocWorkspace\((\d+)", text
    ):
        stores = re.findall(rf"^\s*{re.escape(name)}\[0\] = (.+)$", text, re.M)
        if device != "1" and stores:
            found.append(
                f"TVMBackendAllocWorkspace({device}, ...) -> {name}; host {name}[0] = {stores[0]}"
            )
    return found


def compiled(variant):
    """(kernel signature, [host IR allocation lines], [host IR stores into them])."""
    lib = tvm.compile(make(variant), target="cuda")
    allocs, stores = common.host_device_writes(lib.mod.inspect_source("ll"))
    return common.kernel_signature(lib), allocs, stores


def run_in_child(variant):
    """Call ``variant`` on cuda(0) in a child process: (ok, one-line evidence)."""
    result, failure, _ = common.run_child(__file__, variant)
    if failure is not None:
        return False, failure
    expected = (np.arange(N, dtype="float32") + np.float32(VALUE)).tolist()
    if result != expected:
        return False, f"returned {result}, expected {expected}"
    return True, f"returned {result} as numpy does"


def _child(variant):
    common.call_on_cuda(make(variant), np.arange(N, dtype="float32"))


def _finding(layer, status, evidence):
    return common.finding(BUG, layer, status, evidence)


def _present_or_fixed(layer, present, evidence):
    return _finding(layer, "present" if present else "fixed", evidence)


def probe(run_gpu: bool = False) -> list[dict]:
    """Findings per layer for the annotated host-level scalar (the report's variant)."""
    findings = []
    kind, line = parsed("annotated")
    if kind == "cell":
        # the parser is not where the defect is: a cell is a legitimate parse of this spelling
        evidence = f"`{line}` parses into a one-element local cell (by design; see lowering)"
        findings.append(_finding("parser", "untestable", evidence))
    else:
        evidence = f"`{line}` parses into a {kind}, not a cell"
        findings.append(_present_or_fixed("parser", False, evidence))

    access = lowered_host_device_access("annotated")
    evidence = "; ".join(access) or "no device workspace written from the host"
    findings.append(_present_or_fixed("lowering", bool(access), evidence))

    if not tvm.runtime.enabled("llvm"):
        findings.append(_finding("codegen", "untestable", common.NO_LLVM))
    else:
        signature, allocs, stores = compiled("annotated")
        pointer = re.search(r"\*\s*(?:__restrict__\s+)?c_ptr\b", signature)
        evidence = "main_kernel" + signature.split("main_kernel", 1)[-1]
        if allocs and stores:
            evidence += f" | {allocs[0]} | {stores[0]}"
        findings.append(_present_or_fixed("codegen", bool(pointer or stores), evidence))

    def run():
        ok, evidence = run_in_child("annotated")
        return _present_or_fixed("gpu run", not ok, evidence)

    no_device = "the crash only happens when the kernel is launched"
    return [*findings, common.gpu_run(BUG, run_gpu, no_device, run)]


def show(run):
    """Per variant: how ``c`` parses, the kernel signature, the host IR; with ``run``, the call."""
    for variant in VARIANTS:
        kind, line = parsed(variant)
        signature, allocs, stores = compiled(variant)
        print(f"[{variant}]")
        print(f"  parsed  : {line}  ({kind})")
        print(f"  kernel  : {signature}")
        print(
            "  host IR :",
            "device workspace" if allocs else "no device workspace",
            "|",
            "host store into it" if stores else "no host store into device memory",
        )
        for evidence in allocs + stores:
            print(f"            {evidence}")
        common.print_gpu_run(run, "  gpu run ", lambda: run_in_child(variant)[1])


if __name__ == "__main__":
    common.gpu_script(BUG, probe, _child, show)
