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
"""Probe: the "c" target has no lowering for fabs, exp2, exp10 and fmod.

    python bugs/c_target_intrinsics/probe.py          # evidence
    python bugs/c_target_intrinsics/probe.py --check  # exit 1 if the bug reproduces

``A[0] = op(x)`` for a float32 or float64 scalar ``x``, compiled for the "c" target, built by
the system C compiler at the first call and called with ``x = -2.5`` on the CPU. LowerIntrin
looks up "c.FLowerIntrinsic" (registered for no op) and then the "default" rules, which have no
entry for tirx.fabs, tirx.exp2, tirx.exp10 or tirx.fmod, so ``T.abs``, ``T.isinf`` and
``T.isfinite`` (both built on fabs), ``T.exp2``, ``T.exp10`` and ``T.fmod`` reach CodeGenC as
calls of an Op it cannot print ("Unresolved call"). One layer, ``run``: ``T.abs``, ``T.exp2``,
``T.exp10`` or ``T.fmod`` that does not compile or stores another value than Python's math
gives, or ``T.isinf`` / ``T.isfinite`` whose code generation stops = present (those two are
only compiled to source: built, they also need the C target to print an infinity constant,
the c_host_float_literal report). Control: ``T.exp`` (a default rule) compiles and stores
exp(-2.5), else no C compiler works here: untestable. float16 is not judged (the C host has
no half type at all).
"""

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import judge, needs_tvm, script, stored_value

BUG = "c_target_intrinsics"

with needs_tvm(BUG, "tvm"):
    import tvm
    from tvm.script import tirx as T

X = -2.5
DTYPES = ("float32", "float64")
# op name -> (the TVMScript call of x, the value Python's math gives)
CASES = {
    "abs": (lambda x: T.abs(x), abs(X)),
    "exp2": (lambda x: T.exp2(x), 2.0**X),
    "exp10": (lambda x: T.exp10(x), 10.0**X),
    "fmod": (lambda x: T.fmod(x, x + x), math.fmod(X, 2 * X)),
}
# compiled to source only: their comparison with an infinity is another report's
SOURCE_ONLY = {"isinf": lambda x: T.isinf(x), "isfinite": lambda x: T.isfinite(x)}


def stores(dtype, op, run=True):
    """What ``A[0] = op(x)`` compiled for c stores for ``x = X`` (a float), or one line: why it
    does not compile or run. ``run=False``: None once it compiles to source."""
    ty = getattr(T, dtype)

    @T.prim_func
    def main(A: T.Buffer((1,), dtype), x: ty):
        A[0] = T.Cast(dtype, op(x))

    a = tvm.runtime.empty((1,), dtype)
    # the call: the system C compiler builds the source (for the control, none may work here)
    return stored_value(lambda: tvm.compile(main, target="c"), a, X, run=run)


def close(got, want, dtype):
    tolerance = 1e-6 if dtype == "float32" else 1e-12
    return isinstance(got, float) and math.isclose(got, want, rel_tol=tolerance)


def probe(run_gpu=False):
    del run_gpu  # runs on the CPU

    def control():
        for dtype in DTYPES:
            got = stores(dtype, T.exp)
            if not close(got, math.exp(X), dtype):
                return f"{dtype} T.exp: {got}"
        return None

    def case():
        found = []
        for dtype in DTYPES:
            for name, (op, want) in CASES.items():
                got = stores(dtype, op)
                if not close(got, want, dtype):
                    found.append(f"{dtype} T.{name}: {got}")
            for name, op in SOURCE_ONLY.items():
                got = stores(dtype, op, run=False)
                if got is not None:
                    found.append(f"{dtype} T.{name}: {got}")
        return "; ".join(found) or None

    fixed = "c: abs, exp2, exp10, fmod store math's values; isinf, isfinite compile to source"
    return [judge(BUG, "run", control, case, fixed, "control: ", "c: ")]


if __name__ == "__main__":
    script(BUG, probe)
