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
"""host_scalar:blind2-views-of-views -- the host code writes the cell c only through a view of a
view of it (v over c.data; w over the pointer p = T.address_of(v[0]); w[0] = 1.5), and a kernel
reads c (C[i] = B[i] + c[0]). Shown: the host's TVMBackendAllocWorkspace/FreeWorkspace calls for
c (device type, device id) and the launch on pocl."""

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
        v = T.decl_buffer((1,), "float32", data=c.data)
        p = T.address_of(v[0])
        w = T.decl_buffer((1,), "float32", data=p)
        w[0] = T.float32(1.5)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            C[i] = B[i] + c[0]

    return func


def _program_tirx():
    """The same program on apache/tvm-tirx."""
    from tvm_tirx.script import tirx as T

    @T.function
    def func(B: T.Tensor((4,), "float32"), C: T.Tensor((4,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
        v = T.decl_tensor(c.data, ty_args=[T.Tensor((1,), "float32", scope="local")])
        p = T.address_of(v[0])
        w = T.decl_tensor(p, ty_args=[T.Tensor((1,), "float32", scope="local")])
        w[0] = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 4) as i:
            C[i] = B[i] + c[0]

    return func


def observe(func):
    if ON_TIRX:  # no OpenCL runtime there: the compile for cuda
        return observe_tirx(func, "cuda")
    import numpy as np

    calls = cell_workspace_calls(func)
    b = np.arange(4, dtype="float32")
    return f"{calls}\n" + compile_and_run(func, [b, np.zeros(4, "float32")], [1])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind2-views-of-views"))
