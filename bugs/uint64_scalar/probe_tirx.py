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
"""The tvm-tirx probe of uint64_scalar: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/uint64_scalar/probe_tirx.py          # evidence
    python bugs/uint64_scalar/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/uint64_scalar/probe_tirx.py --json   # the findings as JSON

Layer pass: a uint64 kernel scalar after SplitHostDevice (control: int64), which no GPU
runtime passes.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding, first_line
from probe_tirx_common import N, T, tvm_tirx


def probe(run_gpu=False):
    bug = "uint64_scalar"

    def scalars(dtype):
        scalar = getattr(T, dtype)

        @T.function
        def main(A: T.Tensor((N,), dtype), x: scalar):
            T.func_attr({"target": common.cuda_target().with_host("llvm")})
            with T.launch_thread("threadIdx.x", N) as i:
                A[i] = x

        after = tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.IRModule({"main": main}))
        params = after["main_kernel"].params
        return [f"{p.name}: {p.ty.dtype}" for p in params if isinstance(p.ty, tvm_tirx.ir.PrimType)]

    def row():
        if scalars("int64") != ["x: int64"]:
            return finding(bug, "pass", "untestable", "control: an int64 scalar is not `x: int64`")
        try:
            found = scalars("uint64")
        except ValueError as err:
            if "uint64" not in str(err):
                raise
            return finding(bug, "pass", "fixed", f"SplitHostDevice rejects it: {first_line(err)}")
        if "x: uint64" in found:
            evidence = f"main_kernel takes {', '.join(found)}, which no GPU runtime passes"
            return finding(bug, "pass", "present", evidence)
        return finding(bug, "pass", "fixed", f"main_kernel takes {', '.join(found)}")

    return [common.run_layer(bug, "pass", row)]


if __name__ == "__main__":
    common.script("uint64_scalar", probe)
