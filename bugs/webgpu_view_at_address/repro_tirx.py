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
"""tvm-tirx: WebGPU stops at a failed check on a view a kernel declares at an element's address."""

import sys

import tvm_tirx
from tvm_tirx.script import tirx as T


@T.function
def main(A: T.Tensor((1,), "float32"), B: T.Tensor((1,), "float32")):
    with T.launch_thread("threadIdx.x", 1):
        A_k = T.decl_tensor(T.address_of(A[0]), ty_args=[T.Tensor((1,), "float32")])  # A[0]
        B[0] = A_k[0]


tvm_tirx.tirx.compile(main, target=tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"}))
print("cuda: compiles")
try:
    tvm_tirx.tirx.compile(main, target="webgpu")
    print("webgpu: compiles")
except (RuntimeError, ValueError, TypeError) as err:  # the code generator's own check
    first = str(err).strip().splitlines()[0]  # then where it stopped, in TVMScript
    if "Check failed" in first:
        sys.exit(f"webgpu: {type(err).__name__}: {first}")
    print(f"webgpu: refused with a diagnostic: {first}")
