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
"""host_scalar:blind2-raw-pointer-not-host-use -- the host hands the cell's pointer to a packed
function (T.call_packed("blind2.fill", c.data), which stores 1.5 there through ctypes), and a
kernel reads the cell (C[i] = B[i] + c[0]). Shown: the host's workspace calls for c and the
launch on pocl."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from _host_scalar_tirx import ON_TIRX, cell_workspace_calls, observe_tirx

from harness.blind_demo import compile_and_run, main

# the OpenCL runtime is loaded before the first compile (apache/tvm; tvm-tirx has none)
OPENCL = not ON_TIRX


def program():
    if ON_TIRX:
        return _program_tirx()
    from tvm.script import tirx as T

    @T.prim_func
    def func(B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32")):
        c = T.alloc_buffer((1,), "float32", scope="local")
        T.evaluate(T.call_packed("blind2.fill", c.data))
        for i in T.thread_binding(4, thread="threadIdx.x"):
            C[i] = B[i] + c[0]

    return func


def _register():
    import ctypes

    import tvm_ffi

    @tvm_ffi.register_global_func("blind2.fill", override=True)
    def fill(ptr):  # a host function: it writes host memory
        address = ptr.value if hasattr(ptr, "value") else int(ptr)
        ctypes.c_float.from_address(address).value = 1.5


def _program_tirx():
    """The same program on apache/tvm-tirx."""
    from tvm_tirx.script import tirx as T

    @T.function
    def func(B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
        T.evaluate(T.call_packed("blind2.fill", c.data))
        with T.launch_thread("threadIdx.x", 4) as i:
            C[i] = B[i] + c[0]

    return func


def observe(func):
    if ON_TIRX:  # no OpenCL runtime there: the compile for cuda
        return observe_tirx(func, "cuda")
    import numpy as np

    _register()
    calls = cell_workspace_calls(func)
    b = np.arange(4, dtype="float32")
    return f"{calls}\n" + compile_and_run(func, [b, np.zeros(4, "float32")], [1])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind2-raw-pointer-not-host-use"))
