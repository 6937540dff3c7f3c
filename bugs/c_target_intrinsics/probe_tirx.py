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
"""The tvm-tirx probe of c_target_intrinsics: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/c_target_intrinsics/probe_tirx.py          # evidence
    python bugs/c_target_intrinsics/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/c_target_intrinsics/probe_tirx.py --json   # the findings as JSON

``A[0] = op(x)`` for the "c" target, built by the system C compiler and called with
``x = -2.5``: ``T.abs``, ``T.exp2`` and ``T.exp10`` must compile and store math's value
(``T.exp``, which has a rule, is the control); the Op left unlowered ("Unresolved call") is
the finding. ``T.isinf`` / ``T.isfinite`` (built on fabs) are compiled to source only.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import stored_value
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """``A[0] = op(x)`` for the "c" target, built by the system C compiler and called with
    ``x = -2.5``: ``T.abs``, ``T.exp2`` and ``T.exp10`` must compile and store math's value
    (``T.exp``, which has a rule, is the control); the Op left unlowered ("Unresolved call") is
    the finding. ``T.isinf`` / ``T.isfinite`` (built on fabs) are compiled to source only."""
    bug = "c_target_intrinsics"
    x = -2.5
    ops = {"abs": (T.abs, 2.5), "exp2": (T.exp2, 2.0**x), "exp10": (T.exp10, 10.0**x)}

    def stores(dtype, op, run=True):
        ty = getattr(T, dtype)

        @T.function
        def main(A: T.Tensor((1,), dtype), x: ty):
            A[0] = T.Cast(dtype, op(x))

        a = tvm_tirx.runtime.empty((1,), dtype)
        # the call: the system C compiler builds the source (for the control, none may work)
        return stored_value(lambda: tvm_tirx.tirx.compile(main, target="c"), a, x, run=run)

    def close(got, want):
        return isinstance(got, float) and abs(got - want) <= 1e-6 * abs(want)

    def control():
        for dtype in ("float32", "float64"):
            got = stores(dtype, T.exp)
            if not close(got, 0.0820849986):
                return f"{dtype} T.exp: {got}"
        return None

    def case():
        found = []
        for dtype in ("float32", "float64"):
            for name, (op, want) in ops.items():
                got = stores(dtype, op)
                if not close(got, want):
                    found.append(f"{dtype} T.{name}: {got}")
            for name in ("isinf", "isfinite"):
                got = stores(dtype, getattr(T, name), run=False)
                if got is not None:
                    found.append(f"{dtype} T.{name}: {got}")
        return "; ".join(found) or None

    fixed = "c: abs, exp2, exp10 store math's values; isinf, isfinite compile to source"
    return common.judged_layer(bug, "run", control, case, fixed, "control: ", "c: ")


if __name__ == "__main__":
    common.script("c_target_intrinsics", probe)
