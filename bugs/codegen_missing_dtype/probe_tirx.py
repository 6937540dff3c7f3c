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
"""The tvm-tirx probe of codegen_missing_dtype: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/codegen_missing_dtype/probe_tirx.py          # evidence
    python bugs/codegen_missing_dtype/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/codegen_missing_dtype/probe_tirx.py --json   # the findings as JSON

WebGPU (int64, uint64, float64) and Metal (float64) kernels: a dtype the target lacks
must be refused with a diagnostic, not a failed check.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding, repro_definition


def probe(run_gpu=False):
    """WebGPU (int64, uint64, float64) and Metal (float64) kernels: a dtype the target lacks
    must be refused with a diagnostic, not a failed check."""
    bug = "codegen_missing_dtype"
    kernel = repro_definition(__file__, "kernel")  # the reproducer's kernel

    def row():
        for target in ("webgpu", "metal"):
            if common.codegen_refusal(kernel("int32"), target) is not None:
                evidence = f"control: an int32 kernel does not compile for {target}"
                return finding(bug, "codegen", "untestable", evidence)
        internal = []
        for target, dtype in (("webgpu", "int64"), ("webgpu", "uint64"), ("webgpu", "float64"),
                              ("metal", "float64")):  # fmt: skip
            result = common.codegen_refusal(kernel(dtype), target)
            if result is not None and result[0]:
                internal.append(f"{target} {dtype}: {result[1]}")
        if internal:
            return finding(bug, "codegen", "present", "; ".join(internal))
        evidence = "each missing dtype is refused with a diagnostic (or compiles)"
        return finding(bug, "codegen", "fixed", evidence)

    return [common.run_layer(bug, "codegen", row)]


if __name__ == "__main__":
    common.script("codegen_missing_dtype", probe)
