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
"""The tvm-tirx probe of printer_cell: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/printer_cell/probe_tirx.py          # evidence
    python bugs/printer_cell/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/printer_cell/probe_tirx.py --json   # the findings as JSON

Layer round trip: does a one-element cell keep its annotations and scope through print ->
parse?
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding
from probe_tirx_common import T


def printer_cell_functions():
    """(annotated local cell, shared cell), each written as that package's parser reads it."""

    @T.function
    def annotated(x: T.float32):
        c = T.alloc_tensor(
            ty_args=[T.Tensor((1,), T.float32, scope="local")], annotations={"device_type": 1}
        )
        c[0] = x
        T.evaluate(c[0])

    @T.function
    def shared(x: T.float32):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="shared")])
        c[0] = x
        T.evaluate(c[0])

    return annotated, shared


def probe(run_gpu=False):
    bug = "printer_cell"

    @common.needs(script=("alloc_tensor",), package=("script.from_source",))
    def round_trip():
        annotated, shared = printer_cell_functions()
        lost = {"annotated": common.round_trip_difference(annotated), "shared": None}
        lost["shared"] = common.round_trip_difference(shared)
        if any(lost.values()):
            evidence = "; ".join(f"{k}: {v}" for k, v in lost.items() if v)
            return finding(bug, "round trip", "present", evidence)
        line = next(ln.strip() for ln in annotated.script().splitlines() if "alloc_tensor" in ln)
        return finding(bug, "round trip", "fixed", f"no scalar sugar here: `{line}` round-trips")

    return [common.run_layer(bug, "round trip", round_trip)]


if __name__ == "__main__":
    common.script("printer_cell", probe)
