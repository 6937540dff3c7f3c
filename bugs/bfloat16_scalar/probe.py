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
"""Reproducer: a bfloat16 host scalar does not compile.

    python bugs/bfloat16_scalar/probe.py          # evidence
    python bugs/bfloat16_scalar/probe.py --check  # exit 1 if the bug reproduces

``A[i] = T.Cast("float32", x)`` on llvm with ``x`` a bfloat16 scalar: as an argument,
MakePackedAPI stops at an ICHECK (``dtype.code() == kDLFloat``); as a ``T.let`` value
computed on the host, BF16ComputeLegalize stops at one (the binding's value is legalized to
float32, its variable is not). One layer, ``compile`` (``tvm.compile`` of both spellings:
an InternalError = present; once both compile, both run on the CPU, and a value other than
bfloat16's = present). Control: the same with float16 must compile.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import first_line, judge, needs_tvm, script

BUG = "bfloat16_scalar"

with needs_tvm(BUG):
    import tvm
    from tvm.script import tirx as T


def function(spelling, dtype):
    """``A[i] = float32(x)``, ``x`` of ``dtype`` an argument or a ``T.let`` of the host."""
    if spelling == "argument":

        @T.prim_func
        def main(A: T.Buffer((4,), "float32"), x: tvm.tirx.Var("x", dtype)):
            for i in range(4):
                A[i] = T.Cast("float32", x)

        return main

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), n: T.int32):
        x: T.let[tvm.ir.PrimType(dtype)] = T.Cast(dtype, n)
        for i in range(4):
            A[i] = T.Cast("float32", x)

    return main


def compile_error(spelling, dtype):
    """None when the function compiles for llvm, else the error's first line."""
    try:
        tvm.compile(function(spelling, dtype), target="llvm")
    except Exception as err:  # TVM's InternalError, or whatever a fixed TVM raises instead
        return first_line(err)
    return None


def failures(dtype, label):
    """None when both spellings compile for ``dtype``, else which do not and why."""
    errors = {s: compile_error(s, dtype) for s in ("argument", "let")}
    return "; ".join(f"{label}{s}: {e}" for s, e in errors.items() if e) or None


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device

    def bfloat16():
        errors = failures("bfloat16", "")
        if errors is not None:
            return errors
        wrong = wrong_values()
        return f"compiles, but computes {wrong}" if wrong else None

    return [
        judge(
            BUG,
            "compile",
            control=lambda: failures("float16", "float16 "),
            case=bfloat16,
            fixed="a bfloat16 argument and T.let compile and compute on llvm",
            untestable="control fails: ",
        )
    ]


def wrong_values():
    """None when both functions, run on the CPU, give the bfloat16 values, else what they gave.

    The argument is 1 + 2**-8, halfway between two bfloat16 values: it must arrive as 1.0
    (round to nearest even); the ``T.let`` is ``T.Cast("bfloat16", n)`` with n = 3."""
    got = {}
    for spelling, arg, want in (("argument", 1.00390625, 1.0), ("let", 3, 3.0)):
        lib = tvm.compile(function(spelling, "bfloat16"), target="llvm")
        a = tvm.runtime.empty((4,), "float32")
        lib["main"](a, arg)
        if a.numpy().tolist() != [want] * 4:
            got[spelling] = f"{spelling} {a.numpy().tolist()} (want {want})"
    return "; ".join(got.values()) or None


if __name__ == "__main__":
    script(BUG, probe)
