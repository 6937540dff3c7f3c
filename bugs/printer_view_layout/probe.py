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
"""Reproducer: a reshaping ``T.decl_buffer`` prints as ``A.view(*shape)``, which parses back
with the parent's layout.

    python bugs/printer_view_layout/probe.py          # evidence
    python bugs/printer_view_layout/probe.py --check  # exit 1 if the bug reproduces

``V = T.decl_buffer((4, 2), data=A.data)`` over ``A: T.Buffer((8,))`` (both layouts the
default of their shape) prints through the view sugar as ``V = A.view(4, 2)``; ``Buffer.view``
without ``layout=`` gives the view the parent's layout, so the parsed ``V`` has ``S[8:1]``
where it had ``S[(4, 2):(2, 1)]``. Layer ``round trip``: that function through print -> parse
(the view's line is the evidence). Control: the same with ``V`` of ``A``'s own shape, which
prints as ``T.decl_buffer``, must round-trip.

Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line
reason when it cannot run or is given an unknown argument. ``probe(run_gpu)`` returns the
findings for scripts/check_tvm.py.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

try:
    from probe_common import finding, main, round_trip_error, run_main

    from tvm.script import tirx as T
except Exception as err:  # no usable TVM: one line, exit 2
    print(f"printer_view_layout/probe.py: cannot import tvm/tirx: {err}", file=sys.stderr)
    raise SystemExit(2) from None

BUG = "printer_view_layout"
NAME = "printer_view_layout/probe.py"


def reshaped(reshape):
    """``V`` over ``A.data`` of shape (4, 2), or of ``A``'s own shape (8,)."""
    if reshape:

        @T.prim_func
        def main(A: T.Buffer((8,), "float32")):
            V = T.decl_buffer((4, 2), "float32", data=A.data)
            A[0] = V[1, 1]

    else:

        @T.prim_func
        def main(A: T.Buffer((8,), "float32")):
            V = T.decl_buffer((8,), "float32", data=A.data)
            A[0] = V[3]

    return main


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    control = round_trip_error(reshaped(reshape=False))
    if control is not None:
        evidence = f"even a same-shape declaration does not round-trip here: {control}"
        return [finding(BUG, "round trip", "untestable", evidence)]
    func = reshaped(reshape=True)
    line = next(ln.strip() for ln in func.script().splitlines() if "V =" in ln)
    error = round_trip_error(func)
    if error is not None:
        return [finding(BUG, "round trip", "present", f"`{line}`: {error}")]
    return [finding(BUG, "round trip", "fixed", f"`{line}` round-trips")]


if __name__ == "__main__":
    run_main(NAME, lambda: main(None, NAME, probe))
