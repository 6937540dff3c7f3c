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
"""Reproducer: the TVMScript scalar sugar drops a one-element cell's annotations and scope.

    python bugs/printer_cell/probe.py          # evidence
    python bugs/printer_cell/probe.py --check  # exit 1 if the bug reproduces

A host-level cell ``c = T.alloc_local((1,), "float32", annotations={"device_type": 1}); c[0]
= x`` prints as ``c: T.float32 = x``, which parses back as a plain ``local`` cell: the
annotation is gone (with the host-scalar fix, the cell is back on the device). The same for a
one-element ``shared`` or ``global`` buffer, which comes back ``local``. Layers: ``print``
(the text the printer writes for the annotated cell) and ``round trip`` (the annotated and
the shared cell, structurally compared after print -> parse; the plain cell is the control).

Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line
reason when it cannot run. ``probe(run_gpu)`` returns the findings for scripts/check_tvm.py.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, judge, needs_tvm, script

BUG = "printer_cell"

with needs_tvm(BUG):
    import tvm
    import tvm.script
    from tvm.script import tirx as T


def _cells():
    """(name, function) of the annotated cell, the shared cell and the plain control."""

    @T.prim_func
    def annotated(x: T.float32):
        c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
        c[0] = x
        T.evaluate(c[0])

    @T.prim_func
    def shared(x: T.float32):
        c = T.alloc_buffer((1,), "float32", scope="shared")
        c[0] = x
        T.evaluate(c[0])

    @T.prim_func
    def plain(x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[0] = x
        T.evaluate(c[0])

    return {"annotated": annotated, "shared": shared, "plain": plain}


def _round_trip(func):
    """None when print -> parse gives ``func`` back, else where they differ (one line)."""
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(func.script()))
    except ValueError as err:
        lines = [ln for ln in str(err).splitlines() if "caused by" in ln] or [str(err)]
        return lines[0].strip()
    return None


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    cells = _cells()
    line = next(ln.strip() for ln in cells["annotated"].script().splitlines() if "c" in ln[:9])
    findings = [finding(BUG, "print", "untestable", f"the annotated cell prints as `{line}`")]

    def lost():
        diffs = {name: _round_trip(cells[name]) for name in ("annotated", "shared")}
        return "; ".join(f"{name}: {diff}" for name, diff in diffs.items() if diff) or None

    equal = "annotated and shared cells come back equal (the plain one too)"
    untestable = "even a plain cell does not round-trip here: "
    return [
        *findings,
        judge(BUG, "round trip", lambda: _round_trip(cells["plain"]), lost, equal, untestable),
    ]


if __name__ == "__main__":
    script(BUG, probe, row="{layer:<10} {STATUS:<10} {evidence}")
