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
"""Reproducer: a float32 NaN stored into a bfloat16 buffer becomes -0.0, 0.0 or inf.

    python bugs/bfloat16_store_nan/probe.py          # evidence
    python bugs/bfloat16_store_nan/probe.py --check  # exit 1 if the bug reproduces

``B[0] = T.Cast("bfloat16", T.reinterpret("float32", x))`` for llvm (no bfloat16 arithmetic),
run on the CPU with ``x`` the bits of a NaN. BF16ComputeLegalize rounds the stored value with
DTypeConversion, whose rounding bias carries a NaN's payload into the exponent and the sign:
0x7FFFFFFF gives -0.0, 0xFFFFFFFF 0.0, 0x7F800001 (only low payload bits) inf. One layer,
``run``: any of them stored as a number = present. Controls: the quiet NaN 0x7FC00000 must
stay a NaN, and 1 + 2**-8 (a tie) must round to 1.0 (the finite rounding is right).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import judge, needs_tvm, script

BUG = "bfloat16_store_nan"

with needs_tvm(BUG):
    import tvm
    from tvm.script import tirx as T

QUIET_NAN = 0x7FC00000
TIE = 0x3F808000  # 1 + 2**-8, halfway between 1.0 and the next bfloat16
NANS = (0x7FFFFFFF, 0xFFFFFFFF, 0x7F800001)


@T.prim_func
def store(x: T.int32, B: T.Buffer((1,), "bfloat16")):
    B[0] = T.Cast("bfloat16", T.reinterpret("float32", x))


def stored(lib, bits):
    """The bfloat16 value the compiled ``store`` writes for the float32 of ``bits``."""
    b = tvm.runtime.empty((1,), "bfloat16")
    lib(bits - (1 << 32) if bits >= 1 << 31 else bits, b)  # the int32 of those bits
    return float(b.numpy()[0])


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    lib = tvm.compile(store, target="llvm")

    def controls():
        quiet, tie = stored(lib, QUIET_NAN), stored(lib, TIE)
        if quiet == quiet or tie != 1.0:
            return f"{QUIET_NAN:#010x} gives {quiet}, {TIE:#010x} gives {tie} (want 1.0)"
        return None

    def numbers():
        lost = {bits: stored(lib, bits) for bits in NANS}
        shown = [f"NaN {bits:#010x} -> {value}" for bits, value in lost.items() if value == value]
        return ", ".join(shown) or None

    stays = "llvm: every NaN stored into bfloat16 stays a NaN"
    return [
        judge(BUG, "run", controls, numbers, stays, "control: ", "llvm, stored into bfloat16: ")
    ]


if __name__ == "__main__":
    script(BUG, probe)
