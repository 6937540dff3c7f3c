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
"""Demo program on which the reference fix and blind3-convert-back-plain differ.

The host stores the bits of reinterpret("uint16", Cast("bfloat16", F[i])) for a float32 buffer F
holding the NaN 0x7fffffff and 1.015 (CPU, llvm): BF16ComputeLegalize makes the cast's operand
float32, and KeepType converts it back: the reference keeps the NaN (0x7fff), the wrong fix's
rounding carries it into 0x8000 (-0.0); 1.015 rounds to 0x3f82 in both."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((2,), "uint16"), F: T.Buffer((2,), "float32")):
        for i in range(2):
            A[i] = T.reinterpret("uint16", T.Cast("bfloat16", F[i]))

    return func


def observe(func):
    """Compiled for the CPU (llvm) and called: the bits stored in A, in hex."""
    import numpy as np

    import tvm

    lib = tvm.compile(func, target="llvm")
    a = tvm.runtime.tensor(np.zeros(2, "uint16"))
    f = np.array([0x7FFFFFFF, 0], "uint32").view("float32")
    f[1] = 1.015
    lib["main"](a, tvm.runtime.tensor(f))
    return [hex(v) for v in a.numpy().tolist()]


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "bfloat16_scalar", "blind3-convert-back-plain"))
