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
"""Correct GPU programs, which access device memory in kernels only, for the proof tests that
check that a fix at the host/device boundary leaves them compiling as before (the same code
with and without the fix, or accepted by the verifier: bugs/verify_memory/proof), and a run of
an llvm function ``main(B, C)`` on the CPU (this repository only)."""

import numpy as np

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

N = 8


@I.ir_module
class BoundKernel:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] * T.float32(2.0)


@I.ir_module
class GlobalIntermediate:
    """A global buffer the host allocates that only the kernels access."""

    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        tmp = T.alloc_buffer((N,), "float32")
        for i in T.thread_binding(N, thread="threadIdx.x"):
            tmp[i] = B[i] + T.float32(1.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = tmp[N - 1 - i]


@I.ir_module
class KernelCell:
    """A cell declared inside the kernel."""

    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        for i in T.thread_binding(N, thread="threadIdx.x"):
            c: T.float32 = B[i]
            c = c * T.float32(3.0)
            C[i] = c


@I.ir_module
class SharedMemoryKernel:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        for i in T.thread_binding(N, thread="threadIdx.x"):
            staged = T.alloc_buffer((N,), "float32", scope="shared")
            staged[i] = B[i]
            T.tvm_storage_sync("shared")
            C[i] = staged[N - 1 - i]


def run_on_range(lib):
    """``C`` after ``lib(B, C)`` on the CPU, with ``B = 0, 1, ..., N - 1`` and ``C`` zeros."""
    b = tvm.runtime.tensor(np.arange(N, dtype="float32"))
    c = tvm.runtime.tensor(np.zeros(N, dtype="float32"))
    lib(b, c)
    return c.numpy()
