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
"""The tvm-tirx probe of bfloat16_store_nan: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/bfloat16_store_nan/probe_tirx.py          # evidence
    python bugs/bfloat16_store_nan/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/bfloat16_store_nan/probe_tirx.py --json   # the findings as JSON

float32 NaNs (by their bits) stored into a bfloat16 tensor, on llvm: each must stay NaN.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """float32 NaNs (by their bits) stored into a bfloat16 tensor, on llvm: each must stay NaN."""
    bug = "bfloat16_store_nan"

    @T.function
    def store(x: T.int32, B: T.Tensor((1,), "bfloat16")):
        B[0] = T.Cast("bfloat16", T.reinterpret(x, ty=T.float32))

    def row():
        lib = tvm_tirx.tirx.compile(store, target="llvm")["main"]
        b = tvm_tirx.runtime.empty((1,), "bfloat16")

        def stored(bits):  # the value stored for the float32 of ``bits`` (as an int32)
            lib(bits - (1 << 32) if bits >= 1 << 31 else bits, b)
            return float(b.numpy()[0])

        quiet, tie = stored(0x7FC00000), stored(0x3F808000)
        if quiet == quiet or tie != 1.0:
            evidence = f"control: the quiet NaN gives {quiet}, 1 + 2**-8 gives {tie} (want 1.0)"
            return finding(bug, "run", "untestable", evidence)
        lost = {bits: stored(bits) for bits in (0x7FFFFFFF, 0xFFFFFFFF, 0x7F800001)}
        lost = {bits: value for bits, value in lost.items() if value == value}
        if lost:
            evidence = ", ".join(f"NaN {bits:#010x} -> {value}" for bits, value in lost.items())
            return finding(bug, "run", "present", f"llvm, stored into bfloat16: {evidence}")
        return finding(bug, "run", "fixed", "llvm: every NaN stored into bfloat16 stays a NaN")

    return [common.run_layer(bug, "run", row)]


if __name__ == "__main__":
    common.script("bfloat16_store_nan", probe)
