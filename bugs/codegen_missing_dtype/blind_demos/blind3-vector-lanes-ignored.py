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
"""Demo program on which the reference fix and blind3-vector-lanes-ignored differ.

A WebGPU kernel with an 8-lane vector add A[0:8] = B[0:8] + B[0:8] (WGSL vectors have 2 to 4 lanes).
The wrong fix does not check lanes and lets the internal error through.

Runs on either TVM line (harness/tvm_line.py): .venv/bin/python or .venv-tirx/bin/python."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.blind_demo import main
from harness.tvm_line import LINE

TARGET = "webgpu"

if LINE == "tvm":
    import tvm
    from tvm.script import tirx as T

    def program():
        @T.prim_func
        def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            for t in T.thread_binding(1, thread="threadIdx.x"):
                A[T.ramp(0, 1, 8)] = B[T.ramp(0, 1, 8)] + B[T.ramp(0, 1, 8)]

        return f

    def observe(func):
        tvm.compile(func, target=TARGET)
        return "compiles"

else:
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    def program():
        @T.function
        def f(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
            with T.launch_thread("threadIdx.x", 1) as t:  # noqa: F841 (the launch binds it)
                A[T.ramp(0, 1, 8)] = B[T.ramp(0, 1, 8)] + B[T.ramp(0, 1, 8)]

        return f

    def observe(func):
        tvm_tirx.tirx.compile(func, target=TARGET)
        return "compiles"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "codegen_missing_dtype", "blind3-vector-lanes-ignored"))
