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
"""The tvm-tirx probe of webgpu_view_at_address: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/webgpu_view_at_address/probe_tirx.py          # evidence
    python bugs/webgpu_view_at_address/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/webgpu_view_at_address/probe_tirx.py --json   # the findings as JSON

A view a kernel declares at ``T.address_of(A[0])``: compiles for cuda (the control); for
webgpu it must compile or be refused with a diagnostic, not a failed check.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """A view a kernel declares at ``T.address_of(A[0])``: compiles for cuda (the control); for
    webgpu it must compile or be refused with a diagnostic, not a failed check."""
    bug = "webgpu_view_at_address"

    @T.function
    def main(A: T.Tensor((1,), "float32"), B: T.Tensor((1,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            A_k = T.decl_tensor(T.address_of(A[0]), ty_args=[T.Tensor((1,), "float32")])
            B[0] = A_k[0]

    def row():
        control = common.codegen_refusal(
            main, tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})
        )
        if control is not None:
            return finding(bug, "codegen", "untestable", f"control: cuda refuses it: {control[1]}")
        result = common.codegen_refusal(main, "webgpu")
        if result is None:
            return finding(bug, "codegen", "fixed", "the view compiles for webgpu")
        if result[0]:
            return finding(bug, "codegen", "present", f"webgpu: {result[1]}")
        return finding(bug, "codegen", "fixed", f"webgpu refuses the view: {result[1]}")

    return [common.run_layer(bug, "codegen", row)]


if __name__ == "__main__":
    common.script("webgpu_view_at_address", probe)
