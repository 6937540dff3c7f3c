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
"""Demo program on which the reference fix and blind3-scan-before-build differ.

A VALID WebGPU kernel A[t] = float32(int64(n) * 3 // 2): the released code generator compiles it
(the int64 arithmetic is printed in i32). The wrong fix scans the IR before the build, finds int64
and refuses the program.

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
        def f(A: T.Buffer((4,), "float32"), n: T.int32):
            for t in T.thread_binding(4, thread="threadIdx.x"):
                A[t] = T.Cast("float32", T.Cast("int64", n) * T.int64(3) // T.int64(2))

        return f

    def observe(func):
        tvm.compile(func, target=TARGET)
        return "compiles"

else:
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    def program():
        @T.function
        def f(A: T.Tensor((4,), "float32"), n: T.int32):
            with T.launch_thread("threadIdx.x", 4) as t:
                A[t] = T.Cast("float32", T.Cast("int64", n) * T.int64(3) // T.int64(2))

        return f

    def observe(func):
        tvm_tirx.tirx.compile(func, target=TARGET)
        return "compiles"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "codegen_missing_dtype", "blind3-scan-before-build"))
