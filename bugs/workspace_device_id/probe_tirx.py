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
"""The tvm-tirx probe of workspace_device_id: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/workspace_device_id/probe_tirx.py          # evidence
    python bugs/workspace_device_id/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/workspace_device_id/probe_tirx.py --json   # the findings as JSON

A host workspace (``T.alloc_tensor`` of dynamic size) in a function whose only parameter
is a scalar: must compile, as it does beside a tensor parameter (the control); a refusal
(LowerTVMBuiltin's "Unknown device id" check) is the bug.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding, first_line
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """A host workspace (``T.alloc_tensor`` of dynamic size) in a function whose only parameter
    is a scalar: must compile, as it does beside a tensor parameter (the control); a refusal
    (LowerTVMBuiltin's "Unknown device id" check) is the bug."""
    bug = "workspace_device_id"

    @T.function
    def scalar_only(n: T.int32) -> T.float32:
        B = T.alloc_tensor(ty_args=[T.Tensor((n,), "float32")])
        for i in range(n):
            B[i] = T.float32(1)
        return B[n - 1]

    @T.function
    def with_tensor(n: T.int32, A: T.Tensor((1,), "float32")) -> T.float32:
        B = T.alloc_tensor(ty_args=[T.Tensor((n,), "float32")])
        for i in range(n):
            B[i] = T.float32(1)
        return B[n - 1]

    def row():
        try:
            tvm_tirx.tirx.compile(with_tensor, target="llvm")
        except Exception as err:
            evidence = f"control: even with a tensor parameter: {first_line(err)}"
            return finding(bug, "compile", "untestable", evidence)
        try:
            result = tvm_tirx.tirx.compile(scalar_only, target="llvm")["main"](5)
        except Exception as err:
            return finding(bug, "compile", "present", f"no tensor parameter: {first_line(err)}")
        if result != 1.0:
            return finding(bug, "compile", "present", f"compiles, but main(5) returned {result}")
        return finding(
            bug, "compile", "fixed", "compiles without a tensor parameter; main(5) = 1.0"
        )

    return [common.run_layer(bug, "compile", row)]


if __name__ == "__main__":
    common.script("workspace_device_id", probe)
