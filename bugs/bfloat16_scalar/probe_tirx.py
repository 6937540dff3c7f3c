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
"""The tvm-tirx probe of bfloat16_scalar: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/bfloat16_scalar/probe_tirx.py          # evidence
    python bugs/bfloat16_scalar/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/bfloat16_scalar/probe_tirx.py --json   # the findings as JSON

Layer compile: a bfloat16 argument on llvm (control: float16).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import first_line
from probe_tirx_common import N, T, tvm_tirx


def probe(run_gpu=False):
    bug = "bfloat16_scalar"

    def error(dtype):
        @T.function
        def main(A: T.Tensor((N,), T.float32), x: getattr(T, dtype)):
            for i in range(N):
                A[i] = T.Cast("float32", x)

        try:
            tvm_tirx.tirx.compile(main, target="llvm")
        except Exception as err:  # the code generator's error, or a fixed TIRx's diagnostic
            return first_line(err)
        return None

    return common.judged_layer(
        bug,
        "compile",
        control=lambda: error("float16"),
        case=lambda: error("bfloat16"),
        fixed="a bfloat16 argument compiles on llvm",
        untestable="control: float16 fails: ",
        present="a bfloat16 argument on llvm: ",
    )


if __name__ == "__main__":
    common.script("bfloat16_scalar", probe)
