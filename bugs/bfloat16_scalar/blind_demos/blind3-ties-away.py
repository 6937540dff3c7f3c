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
"""Demo program on which the reference fix and blind3-ties-away differ.

A bfloat16 argument x = 1.00390625 (float32 0x3f808000, exactly halfway between two bfloat16
values) is stored as its bits: the reference rounds the tie to even, 0x3f80; the wrong fix away
from zero, 0x3f81."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((2,), "uint16"), x: T.bfloat16):
        A[0] = T.reinterpret("uint16", x)
        A[1] = T.reinterpret("uint16", x)

    return func


def observe(func):
    """Compiled for the CPU (llvm) and called: the bits stored in A, in hex."""
    import numpy as np

    import tvm

    lib = tvm.compile(func, target="llvm")
    a = tvm.runtime.tensor(np.zeros(2, "uint16"))
    lib["main"](a, 1.00390625)
    return [hex(v) for v in a.numpy().tolist()]


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "bfloat16_scalar", "blind3-ties-away"))
