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
"""bfloat16_scalar, blind2-legalize-before-packed-api: for cuda sm_80 (native bfloat16: the
first BF16ComputeLegalize skips the function), x: T.let[T.bfloat16] = T.Cast("bfloat16", n) *
T.bfloat16(0.5) is computed on the host and read by the kernel. The reference legalizes the
host code after MakePackedAPI (host target) and compiles; the wrong fix legalizes before it,
where the host function still has the cuda target and is skipped: BF16StorageLegalize rejects
the bfloat16 arithmetic left on the host (compiling needs no GPU)."""

import struct
import sys

import tvm
from tvm.script import tirx as T


def _bits(values):
    """float32 values as their hex bits (NaN payloads and -0.0 visible)."""
    return [hex(struct.unpack("<I", struct.pack("<f", float(v)))[0]) for v in values]


def program():
    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), n: T.int32):
        x: T.let[T.bfloat16] = T.Cast("bfloat16", n) * T.bfloat16(0.5)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            A[i] = T.Cast("float32", x)

    return main


def observe(func):
    target = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})
    lib = tvm.compile(func, target=target)
    cuda = lib.mod.imports[0].inspect_source()
    return "compiled: " + next(x.strip() for x in cuda.splitlines() if "__global__" in x)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
    from harness.blind_demo import main

    sys.exit(main(sys.modules[__name__], "bfloat16_scalar", "blind2-legalize-before-packed-api"))
