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
"""host_scalar:blind2-first-kernel-use-decides -- the host sets c = 1.5; a first kernel reads c
(C[i] = B[i] + c), a second kernel stores into it (c = B[0] * 2), then a third kernel reads it
again (D[i] = B[i] + c). The rule rejects c (a kernel stores into host memory); shown: the
compile and, when it compiles, the launch on pocl."""

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
    def func(
        B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32"), D: T.Buffer((4,), "float32")
    ):
        c: T.float32 = T.float32(1.5)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            C[i] = B[i] + c
        for i in T.thread_binding(1, thread="threadIdx.x"):
            c = B[0] * T.float32(2.0)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            D[i] = B[i] + c

    return func


def _program_tirx():
    """The same program on apache/tvm-tirx."""
    from tvm_tirx.script import tirx as T

    @T.function
    def func(
        B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32"), D: T.Tensor((4,), "float32")
    ):
        c: T.float32 = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 4) as i:
            C[i] = B[i] + c
        with T.launch_thread("threadIdx.x", 1) as _i:
            c = B[0] * T.float32(2.0)
        with T.launch_thread("threadIdx.x", 4) as i:
            D[i] = B[i] + c

    return func


def observe(func):
    if ON_TIRX:  # no OpenCL runtime there: the compile for cuda
        return observe_tirx(func, "cuda")
    import numpy as np

    b = np.arange(1, 5, dtype="float32")
    return compile_and_run(func, [b, np.zeros(4, "float32"), np.zeros(4, "float32")], [1, 2])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind2-first-kernel-use-decides"))
