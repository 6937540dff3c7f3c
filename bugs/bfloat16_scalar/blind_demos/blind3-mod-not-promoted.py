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
"""Demo program on which the reference fix and blind3-mod-not-promoted differ.

A bfloat16 argument x = 7.0 and the bits of x % 3 and (x * 3) % 5 on the host (Mod nodes): the
reference computes both in float32; the wrong fix leaves them in bfloat16, which
BF16StorageLegalize rejects."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((2,), "uint16"), x: T.bfloat16):
        A[0] = T.reinterpret("uint16", x + T.bfloat16(3.0))
        A[1] = T.reinterpret("uint16", x * T.bfloat16(3.0) + T.bfloat16(5.0))

    # TVMScript's % refuses float operands: the Mod nodes are made directly (the wheel's
    # code generator has no floor division of floats, so truncmod, the `%` of the patch)
    import tvm_ffi

    from tvm import tirx

    def to_mod(node):
        return tirx.Mod(node.a, node.b)

    return func.with_body(tvm_ffi.structural_map(func.body, (tirx.Add, to_mod)))


def observe(func):
    """Compiled for the CPU (llvm) and called: the bits stored in A, in hex."""
    import numpy as np

    import tvm

    lib = tvm.compile(func, target="llvm")
    a = tvm.runtime.tensor(np.zeros(2, "uint16"))
    lib["main"](a, 7.0)
    return [hex(v) for v in a.numpy().tolist()]


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "bfloat16_scalar", "blind3-mod-not-promoted"))
