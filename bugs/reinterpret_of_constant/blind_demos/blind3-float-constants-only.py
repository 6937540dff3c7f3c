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
"""Demo program on which the reference fix and blind3-float-constants-only differ.

Valid kernel: A[0] = reinterpret(float32, int32 0x3f800000) (the bits of 1.0f), run on pocl. The
wrong fix leaves the int32 literal's address in the source: the OpenCL build fails."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from harness.blind_demo import compile_and_run, main
from tvm.script import tirx as T

OPENCL = True


def program():
    @T.prim_func
    def f(A: T.Buffer((1,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.reinterpret("float32", T.int32(0x3F800000))

    return f


def observe(func):
    return compile_and_run(func, [np.zeros(1, "float32")], [0])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "reinterpret_of_constant", "blind3-float-constants-only"))
