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
"""The tvm-tirx probe of reinterpret_of_constant: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/reinterpret_of_constant/probe_tirx.py          # evidence
    python bugs/reinterpret_of_constant/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/reinterpret_of_constant/probe_tirx.py --json   # the findings as JSON

A kernel's ``T.reinterpret(T.float32(2.0), ty=T.uint32)`` in OpenCL and CUDA source: the
address of a literal (``&(2.0...)``) is no valid C.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """A kernel's ``T.reinterpret(T.float32(2.0), ty=T.uint32)`` in OpenCL and CUDA source: the
    address of a literal (``&(2.0...)``) is no valid C."""
    bug = "reinterpret_of_constant"

    @T.function
    def main(A: T.Tensor((1,), "uint32")):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.reinterpret(T.float32(2.0), ty=T.uint32)

    def row():
        found = []
        for target in ("opencl", {"kind": "cuda", "arch": "sm_80"}):
            target = tvm_tirx.target.Target(target)
            lib = tvm_tirx.tirx.compile(main, target=target)
            source = lib.mod.imports[0].inspect_source()
            line = next((x.strip() for x in source.splitlines() if "A_ptr[0] =" in x), None)
            if line is None:
                evidence = f"{target.kind.name}: no store to A_ptr[0] in the kernel source"
                return finding(bug, "codegen", "untestable", evidence)
            if re.search(r"&\(\s*[-+.0-9]", line):
                found.append(f"{target.kind.name}: `{line}`")
        if found:
            evidence = f"the address of a literal: {'; '.join(found)}"
            return finding(bug, "codegen", "present", evidence)
        return finding(bug, "codegen", "fixed", "opencl, cuda: no kernel takes a literal's address")

    return [common.run_layer(bug, "codegen", row)]


if __name__ == "__main__":
    common.script("reinterpret_of_constant", probe)
