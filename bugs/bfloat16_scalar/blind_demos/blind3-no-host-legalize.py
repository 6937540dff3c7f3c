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
"""Demo program on which the reference fix and blind3-no-host-legalize differ.

A function for cuda sm_80 (which computes in bfloat16, so the BF16 passes skip it before
SplitHostDevice) binds y = x * 2 + 1 of a bfloat16 argument x on the host and stores the bits of
y from a kernel: the reference legalizes the host code after MakePackedAPI and compiles it; the
wrong fix leaves bfloat16 arithmetic in the host code, which BF16StorageLegalize rejects."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((4,), "uint16"), x: T.bfloat16):
        y: T.let[T.bfloat16] = x * T.bfloat16(2.0) + T.bfloat16(1.0)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            A[i] = T.reinterpret("uint16", y)

    return func


def observe(func):
    """Compiled for cuda sm_80 (no GPU needed): the host code's arithmetic on y."""
    import tvm

    target = tvm.target.Target({"kind": "cuda", "arch": "sm_80"}, host="llvm")
    lib = tvm.compile(func, target=target)
    host = lib.mod.inspect_source("ll")
    return sorted(
        {
            x.split("=", 1)[1].split(",")[0].strip()
            for x in host.splitlines()
            if " = f" in x and ("fmul" in x or "fadd" in x or "fpext" in x)
        }
    )


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "bfloat16_scalar", "blind3-no-host-legalize"))
