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
"""The tvm-tirx probe of printer_param_data: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/printer_param_data/probe_tirx.py          # evidence
    python bugs/printer_param_data/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/printer_param_data/probe_tirx.py --json   # the findings as JSON

Not affected on 0.1.0a4 (its printer writes ``A.data``): the probe pins the round trip.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding, first_line
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """Not affected on 0.1.0a4 (its printer writes ``A.data``): the probe pins the round trip."""
    bug = "printer_param_data"

    @common.needs(script=("decl_tensor",), package=("script.from_source",))
    def round_trip():
        @T.function
        def main(A: T.Tensor((1,), T.float32), x: T.float32):
            A[0] = x

        after = tvm_tirx.tirx.transform.FlattenTensor()(tvm_tirx.IRModule({"main": main}))
        line = next(ln.strip() for ln in after.script().splitlines() if "decl_tensor" in ln)
        try:
            difference = common.round_trip_difference(after)
        except Exception as err:  # the parser refusing the printed text
            return finding(bug, "round trip", "present", f"`{line}`: {first_line(err)}")
        if difference:
            return finding(bug, "round trip", "present", f"`{line}`: {difference}")
        return finding(bug, "round trip", "fixed", f"FlattenTensor's `{line}` round-trips")

    return [common.run_layer(bug, "round trip", round_trip)]


if __name__ == "__main__":
    common.script("printer_param_data", probe)
