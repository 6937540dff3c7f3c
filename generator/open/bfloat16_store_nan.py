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
"""Open (apache/tvm 0.27, released and under the reference fixes): a float32 NaN stored into a
bfloat16 buffer on a target without bfloat16 arithmetic becomes -0.0 when its payload is all
ones.

    .venv/bin/python generator/open/bfloat16_store_nan.py

BF16ComputeLegalize rounds a value stored into a bfloat16 buffer with DTypeConversion, whose
rounding bias ``((u >> 16) & 1) + 0x7FFF`` is added to every float32, a NaN included: the
all-ones payload 0x7FFFFFFF carries into the sign bit (0x8000, -0.0); a signaling NaN with
only low payload bits would carry into an infinity, but the host quiets it on the way in. Patch
0009 keeps a NaN a quiet NaN where it rounds a scalar
(BFloat16Bits); buffer stores, which kernels use, still round through DTypeConversion. Found
while testing that patch. Exit 1 while a stored NaN is not a NaN, 0 once it is.
"""

import struct
import sys

import numpy as np

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((2,), "float32"), B: T.Buffer((2,), "bfloat16")):
    for i in range(2):
        B[i] = T.Cast("bfloat16", A[i])


def _nan(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


lib = tvm.compile(main, target="llvm")
a = tvm.runtime.tensor(np.array([_nan(0x7FFFFFFF), _nan(0x7FC00000)], "float32"))
b = tvm.runtime.empty((2,), "bfloat16")
lib(a, b)
bits = b.numpy().view("uint16")
print("bfloat16 bits stored for two float32 NaNs:", [hex(int(v)) for v in bits])
is_nan = [(int(v) & 0x7F80) == 0x7F80 and (int(v) & 0x7F) != 0 for v in bits]
sys.exit(0 if all(is_nan) else 1)
