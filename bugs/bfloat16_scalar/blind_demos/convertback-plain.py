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
"""bfloat16_scalar, blind2-convertback-plain: a host function on llvm stores the bits of
T.reinterpret("uint16", T.Cast("bfloat16", f)) for a float32 argument f, called with the NaN
0x7fffffff. The cast is computed in float32 and converted back for the reinterpret: the
reference keeps the quiet NaN 0x7fff (32767); the wrong fix's DTypeConversion gives 0x8000
(32768, -0.0)."""

import struct
import sys

import numpy as np

import tvm
from tvm.script import tirx as T


def _bits(values):
    """float32 values as their hex bits (NaN payloads and -0.0 visible)."""
    return [hex(struct.unpack("<I", struct.pack("<f", float(v)))[0]) for v in values]


def program():
    @T.prim_func
    def main(A: T.Buffer((1,), "int32"), f: T.float32):
        A[0] = T.Cast("int32", T.reinterpret("uint16", T.Cast("bfloat16", f)))

    return main


def observe(func):
    lib = tvm.compile(func, target="llvm")
    a = tvm.runtime.tensor(np.zeros(1, "int32"))
    lib["main"](a, struct.unpack("<d", struct.pack("<Q", 0x7FFFFFFFFFFFFFFF))[0])
    return f"A = {a.numpy().tolist()}"


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
    from harness.blind_demo import main

    sys.exit(main(sys.modules[__name__], "bfloat16_scalar", "blind2-convertback-plain"))
