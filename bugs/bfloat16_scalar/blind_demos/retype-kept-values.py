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
"""bfloat16_scalar, blind2-retype-kept-values: a host function on llvm binds y: T.let[T.bfloat16] =
B[0] (a load from its bfloat16 argument B) and stores the bits of y twice through
T.reinterpret("uint16", y); B[0] holds the signalling NaN 0x7f81. The reference keeps y in
bfloat16 and stores 0x7f81 (32641); the wrong fix retypes y to float32 and converts it back,
which quiets the NaN: 0x7fc1 (32705)."""

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
    def main(A: T.Buffer((2,), "int32"), B: T.Buffer((1,), "bfloat16")):
        y: T.let[T.bfloat16] = B[0]
        A[0] = T.Cast("int32", T.reinterpret("uint16", y))
        A[1] = T.Cast("int32", T.reinterpret("uint16", y)) + 1

    return main


def observe(func):
    import ml_dtypes

    lib = tvm.compile(func, target="llvm")
    a = tvm.runtime.tensor(np.zeros(2, "int32"))
    b = tvm.runtime.tensor(np.array([0x7F81], "uint16").view(ml_dtypes.bfloat16))
    lib["main"](a, b)
    return f"A = {a.numpy().tolist()}"


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
    from harness.blind_demo import main

    sys.exit(main(sys.modules[__name__], "bfloat16_scalar", "blind2-retype-kept-values"))
