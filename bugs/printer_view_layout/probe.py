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
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import judge, needs_tvm, repro_definition, round_trip_error, script

BUG = "printer_view_layout"

with needs_tvm(BUG):
    from tvm.script import tirx as T


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device

    @T.prim_func
    def control(A: T.Buffer((8,), "float32")):  # V of A's own shape
        V = T.decl_buffer((8,), "float32", data=A.data)
        A[0] = V[3]

    func = repro_definition(__file__, "main")  # V of shape (4, 2)
    line = next(ln.strip() for ln in func.script().splitlines() if "V =" in ln)
    return [
        judge(
            BUG,
            "round trip",
            control=lambda: round_trip_error(control),
            case=lambda: round_trip_error(func),
            fixed=f"`{line}` round-trips",
            untestable="even a same-shape declaration does not round-trip here: ",
            present=f"`{line}`: ",
        )
    ]


if __name__ == "__main__":
    script(BUG, probe)
