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
"""Demo program on which the reference fix and blind3-address-of-skips-indices differ.

The host computes a view address_of(A[Idx[0]]): the index reads device buffer Idx on the host;
the reference rejects it, the wrong fix does not."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

import tvm
from harness.blind_demo import main
from tvm.script import tirx as T


def program():
    @T.prim_func
    def func(
        Idx: T.Buffer((1,), "int32"), A: T.Buffer((8,), "float32"), C: T.Buffer((4,), "float32")
    ):
        V = T.decl_buffer((4,), "float32", data=T.address_of(A[Idx[0]]))  # Idx[0] read on the host
        for tx in T.thread_binding(4, thread="threadIdx.x"):
            C[tx] = V[tx]

    return func


def observe(func, target="cuda"):
    try:
        tvm.compile(func, target=target)
    except Exception as err:  # VerifyMemory names the variable; other errors their first line
        lines = [x.strip() for x in str(err).splitlines() if "directly accessed" in x]
        return "rejected: " + (lines[0] if lines else str(err).strip().splitlines()[-1][:200])
    return "compiled"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "verify_memory", "blind3-address-of-skips-indices"))
