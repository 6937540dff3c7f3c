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
"""Demo program on which the reference fix and blind3-shared-temporary differ.

Valid kernel: the same constant reinterpreted twice, first inside an if (if t == 0: A[0] =
reinterpret(uint32, 2.0f)), then after it (A[1] = reinterpret(uint32, 2.0f)), in two threads, run
on pocl. The wrong fix shares one temporary, declared inside the if's block only: the second
store names a variable out of scope and the OpenCL build fails."""

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
    def f(A: T.Buffer((2,), "uint32")):
        for t in T.thread_binding(2, thread="threadIdx.x"):
            if t == 0:
                A[0] = T.reinterpret("uint32", T.float32(2.0))
            A[1] = T.reinterpret("uint32", T.float32(2.0))

    return f


def observe(func):
    return compile_and_run(func, [np.zeros(2, "uint32")], [0])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "reinterpret_of_constant", "blind3-shared-temporary"))
