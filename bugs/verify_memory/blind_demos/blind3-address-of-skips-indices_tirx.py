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
"""Demo tvm-tirx program on which the reference fix and blind3-address-of-skips-indices differ.

tvm-tirx twin: a host view at address_of(A[Idx[0]]): the index reads device tensor Idx."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import main

# run with .venv-tirx/bin/python (the apache/tvm-tirx line)


def program():
    @T.function
    def func(
        Idx: T.Tensor((1,), "int32"), A: T.Tensor((8,), "float32"), C: T.Tensor((4,), "float32")
    ):
        V = T.decl_tensor(T.address_of(A[Idx[0]]), ty_args=[T.Tensor((4,), "float32")])
        with T.launch_thread("threadIdx.x", 4) as tx:
            C[tx] = V[tx]

    return func


def observe(func, target=None):
    target = target or tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})
    try:
        tvm_tirx.tirx.compile(func, target=target)
    except Exception as err:  # VerifyMemory names the variable; other errors their first line
        lines = [x.strip() for x in str(err).splitlines() if "directly accessed" in x]
        said = [x for x in str(err).strip().splitlines() if x.strip()]
        return "rejected: " + (lines[0] if lines else said[-1][:200])
    return "compiled"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "verify_memory", "blind3-address-of-skips-indices"))
