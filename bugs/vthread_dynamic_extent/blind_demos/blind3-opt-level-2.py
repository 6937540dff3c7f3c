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
"""Demo program on which the reference fix and blind3-opt-level-2 differ.

A VALID kernel with a constant virtual thread: for v in vthread(2), i in threadIdx.x(4): A[v * 4
+ i] = v * 4 + i, compiled for OpenCL under PassContext(opt_level=1) and run on pocl. The wrong
fix's pass (opt_level 2) is skipped by the pipeline's Sequential: the virtual thread is never
injected and the compile fails."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

import tvm
from harness.blind_demo import main, run_opencl
from tvm.script import tirx as T

OPENCL = True


def program():
    @T.prim_func
    def f(A: T.Buffer((8,), "float32")):
        for v in T.thread_binding(2, thread="vthread"):
            for i in T.thread_binding(4, thread="threadIdx.x"):
                A[v * 4 + i] = T.Cast("float32", v * 4 + i)

    return f


def observe(func):
    with tvm.transform.PassContext(opt_level=1):
        lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
    return run_opencl(lib, [np.zeros(8, "float32")], [0])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "vthread_dynamic_extent", "blind3-opt-level-2"))
