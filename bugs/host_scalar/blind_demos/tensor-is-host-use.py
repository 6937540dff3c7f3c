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
"""host_scalar:blind2-tensor-is-host-use -- a valid program: a kernel computes the cell c
(c[0] = B[0] * 2), and the host hands c as a tensor to a packed function
(T.call_packed("blind2.copy", c, D), which copies it into D); the host code never loads or
stores c itself, so c stays device memory. Run on pocl (OpenCL, llvm host)."""

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
    def func(B: T.Buffer((1,), "float32"), D: T.Buffer((1,), "float32")):
        c = T.alloc_buffer((1,), "float32", scope="local")
        for i in T.thread_binding(1, thread="threadIdx.x"):
            c[0] = B[0] * T.float32(2.0)
        T.evaluate(T.call_packed("blind2.copy", c, D))

    return func


def _register():
    import tvm_ffi

    @tvm_ffi.register_global_func("blind2.copy", override=True)
    def copy(src, dst):
        src.copyto(dst)


def _program_tirx():
    """The same program on apache/tvm-tirx."""
    from tvm_tirx.script import tirx as T

    @T.function
    def func(B: T.Tensor((1,), "float32"), D: T.Tensor((1,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
        with T.launch_thread("threadIdx.x", 1) as _i:
            c[0] = B[0] * T.float32(2.0)
        T.evaluate(T.call_packed("blind2.copy", c, D))

    return func


def observe(func):
    if ON_TIRX:  # no OpenCL runtime there: the compile for cuda
        return observe_tirx(func, "cuda")
    import numpy as np

    _register()
    return compile_and_run(func, [np.array([1.25], "float32"), np.zeros(1, "float32")], [1])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind2-tensor-is-host-use"))
