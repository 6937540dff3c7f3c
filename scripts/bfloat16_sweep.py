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
"""bfloat16 host scalars across targets: each program compiled (and run on llvm) in a child.

    python scripts/bfloat16_sweep.py [--reference-fixes]

Prints a Markdown table (program, target, result, the values A holds after each call on llvm)
for the TVM this interpreter imports (TVM_PYTHON's for a source build), with this repository's
reference fixes installed in each child when asked. A child that dies by a signal shows as
``signal N``. patches/VALIDATION.md puts three runs side by side. Exit 0 after printing; 2 with
a one-line reason on bad arguments.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)

PROGRAMS = {
    "arg-host": (
        """
@T.prim_func
def main(A: T.Buffer((2,), "float32"), x: T.bfloat16):
    T.func_attr({"tirx.noalias": True})
    A[0] = T.Cast("float32", x)
    A[1] = T.Cast("float32", x * T.bfloat16(2.0))
""",
        "host",
        [(1.00390625,), (70000.0,)],
    ),
    "let-host": (
        """
@T.prim_func
def main(A: T.Buffer((1,), "float32"), n: T.int32):
    T.func_attr({"tirx.noalias": True})
    y: T.let[T.bfloat16] = T.Cast("bfloat16", n) * T.bfloat16(0.5) + T.bfloat16(1.0 / 3.0)
    A[0] = T.Cast("float32", y)
""",
        "host",
        [(3,)],
    ),
    "let-x4-host": (
        """
@T.prim_func
def main(A: T.Buffer((4,), "float32"), n: T.int32):
    T.func_attr({"tirx.noalias": True})
    y: T.let[tvm.ir.PrimType("bfloat16x4")] = T.Broadcast(T.Cast("bfloat16", n), 4)
    A[0:4] = T.Cast("float32x4", y)
""",
        "host",
        [(3,)],
    ),
    "arg-kernel": (
        """
@T.prim_func
def main(A: T.Buffer((4,), "float32"), x: T.bfloat16):
    T.func_attr({"tirx.noalias": True})
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = T.Cast("float32", x) + T.Cast("float32", i)
""",
        "gpu",
        [(1.00390625,), (70000.0,)],
    ),
    "let-kernel": (
        """
@T.prim_func
def main(A: T.Buffer((4,), "float32"), n: T.int32):
    T.func_attr({"tirx.noalias": True})
    v: T.let[T.bfloat16] = T.Cast("bfloat16", n) + T.bfloat16(1.0)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = T.Cast("float32", v) * T.float32(2.0)
""",
        "gpu",
        [(3,)],
    ),
    "let-unused": (
        """
@T.prim_func
def main(A: T.Buffer((4,), "float32"), n: T.int32):
    T.func_attr({"tirx.noalias": True})
    v: T.let[T.bfloat16] = T.Cast("bfloat16", n) + T.bfloat16(1.0)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = T.float32(1.0)
""",
        "gpu",
        [(3,)],
    ),
    "cell-kernel": (
        """
@T.prim_func
def main(A: T.Buffer((4,), "float32"), n: T.int32):
    T.func_attr({"tirx.noalias": True})
    c: T.bfloat16 = T.Cast("bfloat16", n)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = T.Cast("float32", c)
""",
        "gpu",
        [(3,)],
    ),
    "exp-sm80": (
        """
@T.prim_func
def main(A: T.Buffer((4,), "float32"), n: T.int32):
    T.func_attr({"tirx.noalias": True})
    v: T.let[T.bfloat16] = T.exp(T.Cast("bfloat16", n))
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = T.Cast("float32", v)
""",
        "gpu",
        [(1,)],
    ),
}
TARGETS = {"host": ["llvm", "c"], "gpu": ["cuda", "cuda-sm80", "opencl"]}

CHILD = r"""
import sys, json
import numpy as np
fixes = sys.argv[1] == "1"
if fixes:
    sys.path.insert(0, sys.argv[6])
    from harness import reference_fixes
    reference_fixes.install(list(reference_fixes.KNOWN))
import tvm
from tvm.script import tirx as T
src, tgt, runs = sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
main = tvm.script.from_source(src, extra_vars={"T": T, "tvm": tvm})
target = {"cuda-sm80": tvm.target.Target({"kind": "cuda", "arch": "sm_80"}),
          "opencl": tvm.target.Target("opencl", host="llvm")}.get(tgt, tgt)
try:
    lib = tvm.compile(main, target=target)
except Exception as e:
    msg = str(e).strip().splitlines()
    causes = ("Cannot", "Check failed", "InternalError", "ValueError", "TypeError")
    msg = [l for l in msg if l.lstrip().startswith(causes)] or [
        l for l in msg if "Error" in l
    ] or msg
    print(json.dumps({"status": type(e).__name__, "msg": msg[-1][:120] if msg else ""}))
    sys.exit(0)
values = []
if tgt == "llvm":  # the one target whose code runs on the CPU
    n = {"arg-host": 2, "let-host": 1}.get(sys.argv[5], 4)
    for args in runs:
        a = tvm.runtime.tensor(np.zeros(int(n), "float32"), tvm.cpu())
        lib(a, *args)
        values.append([float(v) for v in a.numpy()])
print(json.dumps({"status": "ok", "values": values}))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-fixes", action="store_true")
    args = parser.parse_args()
    fixes = args.reference_fixes
    py = sys.executable
    print("| program | target | result | values |\n|---|---|---|---|")
    for name, (src, kind, runs) in PROGRAMS.items():
        for tgt in TARGETS[kind]:
            if name == "exp-sm80" and tgt != "cuda-sm80":
                continue
            p = subprocess.run(
                [
                    py,
                    "-c",
                    CHILD,
                    "1" if fixes else "0",
                    src,
                    tgt,
                    json.dumps(runs),
                    name,
                    ROOT,
                ],
                capture_output=True,
                text=True,
                timeout=300,
            )
            if p.returncode < 0:
                res, vals = f"signal {-p.returncode}", ""
            elif p.returncode != 0:
                res, vals = "child failed: " + (p.stderr.strip().splitlines() or [""])[-1][:100], ""
            else:
                r = json.loads(p.stdout.strip().splitlines()[-1])
                res = r["status"] if r["status"] == "ok" else f"{r['status']}: {r['msg']}"
                vals = "; ".join(",".join(f"{v:g}" for v in run) for run in r.get("values", []))
            print(f"| {name} | {tgt} | {res.replace('|', '/')} | {vals} |", flush=True)


if __name__ == "__main__":
    main()
