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
"""host_scalar:blind2-vector-cell-by-value -- the host sets a one-element float32x4 cell
(c[0] = broadcast(1.5)), and a kernel adds its vector to a row (C[i, 0:4] = B[i, 0:4] + c[0]).
Shown: the compile (the rule rejects it: a launch passes no vector) and, when it compiles, the
launch on pocl."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from _host_scalar_tirx import ON_TIRX, observe_tirx

from harness.blind_demo import compile_and_run, main

# the OpenCL runtime is loaded before the first compile (apache/tvm; tvm-tirx has none)
OPENCL = not ON_TIRX


def program():
    if ON_TIRX:
        return _program_tirx()
    from tvm.script import tirx as T

    @T.prim_func
    def func(B: T.Buffer((2, 4), "float32"), C: T.Buffer((2, 4), "float32")):
        c = T.alloc_buffer((1,), "float32x4", scope="local")
        c[0] = T.Broadcast(T.float32(1.5), 4)
        for i in T.thread_binding(2, thread="threadIdx.x"):
            C[i, T.Ramp(0, 1, 4)] = B[i, T.Ramp(0, 1, 4)] + c[0]

    return func


def _program_tirx():
    """The same program on apache/tvm-tirx."""
    from tvm_tirx.script import tirx as T

    @T.function
    def func(B: T.Tensor((2, 4), "float32"), C: T.Tensor((2, 4), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32x4", scope="local")])
        c[0] = T.Broadcast(T.float32(1.5), 4)
        with T.launch_thread("threadIdx.x", 2) as i:
            C[i, T.Ramp(0, 1, 4)] = B[i, T.Ramp(0, 1, 4)] + c[0]

    return func


def observe(func):
    if ON_TIRX:  # no OpenCL runtime there: the compile for cuda
        return observe_tirx(func, "cuda")
    import numpy as np

    b = np.arange(8, dtype="float32").reshape(2, 4)
    return compile_and_run(func, [b, np.zeros((2, 4), "float32")], [1])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind2-vector-cell-by-value"))
