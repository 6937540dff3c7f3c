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
"""An entry point (global_symbol) with a hand-written cuda target without host and a host loop
over its parameter: what verify_memory says."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from harness.tvm_line import LINE

    if LINE == "tvm_tirx":
        return _program_tirx()
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda"), "global_symbol": "func"})
        for i in range(8):  # bound to no thread: host code over device memory
            A[i] = A[i] + T.float32(1)

    return func


def _program_tirx():
    from tvm_tirx.script import tirx as T

    @T.function
    def func(A: T.Tensor((8,), "float32")):
        T.func_attr(
            {"target": T.target({"kind": "cuda", "arch": "sm_80"}), "global_symbol": "func"}
        )
        for i in range(8):  # in no launch: host code over device memory
            A[i] = A[i] + T.float32(1)

    return func


def observe(func):
    from harness.tvm_line import ir

    return f"verify_memory: {ir.analysis.verify_memory(func)}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "verify_memory", "blind2-host-less-entry-skipped"))
