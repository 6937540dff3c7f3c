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
"""WebGPU stops at an internal error on a view a kernel declares at an element's address."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A_k = T.decl_buffer((1,), "float32", data=T.address_of(A[0]))  # a view of A[0]
        B[0] = A_k[0]


tvm.compile(main, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))
print("cuda: compiles")
try:
    tvm.compile(main, target="webgpu")
    print("webgpu: compiles")
except (tvm.error.InternalError, TypeError, ValueError) as err:  # ValueError: a diagnostic
    last = str(err).strip().splitlines()[-1]
    if "Check failed" in last or "Cannot treat type" in last:
        sys.exit(f"webgpu: {type(err).__name__}: {last}")
    print(f"webgpu: refused with a diagnostic: {last}")
