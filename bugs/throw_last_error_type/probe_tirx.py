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
"""The tvm-tirx probe of throw_last_error_type: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/throw_last_error_type/probe_tirx.py          # evidence
    python bugs/throw_last_error_type/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/throw_last_error_type/probe_tirx.py --json   # the findings as JSON

MakePackedAPI's ``throw_last_error`` (int32) against the same call after print -> parse.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import judge
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """MakePackedAPI's ``throw_last_error`` (int32) against the same call after print -> parse."""
    bug = "throw_last_error_type"

    @common.needs(script=("throw_last_error",), package=("script.from_source",))
    def round_trip():
        target = {"kind": "cuda", "arch": "sm_80", "host": "llvm"}

        @T.function
        def main(A: T.Tensor((1,), T.float32), x: T.float32):
            T.func_attr({"target": T.target(target)})
            with T.launch_thread("threadIdx.x", 1):
                A[0] = x

        passes = tvm_tirx.tirx.transform
        mod = tvm_tirx.IRModule({"main": main})
        after = passes.MakePackedAPI()(passes.SplitHostDevice()(mod))
        wrote = "throw_last_error" in after.script()
        return judge(
            bug,
            "round trip",
            control=lambda: None if wrote else "MakePackedAPI wrote no throw here",
            case=lambda: common.round_trip_difference(after),
            fixed="MakePackedAPI's throw_last_error round-trips",
            present="MakePackedAPI's output: ",
        )

    return [common.run_layer(bug, "round trip", round_trip)]


if __name__ == "__main__":
    common.script("throw_last_error_type", probe)
