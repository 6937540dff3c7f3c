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
"""Demo program on which the reference fix and blind3-hostless-entry-skipped differ.

An entry point (global_symbol "main") with a hand-written T.target("cuda") (no host) whose host
code stores into its buffer parameter before a kernel: the reference's verify_memory rejects it,
the wrong fix skips the function and accepts it."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

import tvm
from harness.blind_demo import main
from tvm.script import tirx as T


def program():
    @T.prim_func
    def func(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        C[0] = T.float32(1)  # host write into device memory
        with T.launch_thread("threadIdx.x", 8) as tx:
            C[tx] = B[tx]

    return func


def observe(func):
    return f"verify_memory: {tvm.tirx.analysis.verify_memory(func)}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "verify_memory", "blind3-hostless-entry-skipped"))
