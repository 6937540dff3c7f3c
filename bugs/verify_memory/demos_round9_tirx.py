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
"""Round 9 blind demos of the verify_memory report on apache/tvm-tirx: the programs
of demos_round9.py in this line's spelling (``launch_thread`` regions, ``decl_tensor`` views,
``alloc_tensor``), given to VerifyMemory alone; the same observer."""

from bugs.verify_memory.demos_round9 import _script, _verified
from harness.blind_demo import Demo

NESTED_EXTENT = """
@T.function
def main(L: T.Tensor((1,), "int32"), B: T.Tensor((64,), "float32")):
    with T.launch_thread("blockIdx.x", 1) as bx:
        with T.launch_thread("threadIdx.x", L[0]) as tx:
            B[tx] = T.float32(1.0)
"""

SHARED_DYN = """
@T.function
def main(L: T.Tensor((1,), "int32"), B: T.Tensor((64,), "float32")):
    with T.launch_thread("threadIdx.x", 8) as tx:
        S = T.alloc_tensor(ty_args=[T.Tensor((L[0],), "float32", scope="shared.dyn")])
        S[tx] = T.float32(1.0)
        B[tx] = S[tx]
"""

VIEW_ADDRESS = """
@T.function
def main(A: T.Tensor((16,), "float32"), B: T.Tensor((8,), "float32")):
    V = T.decl_tensor(T.address_of(A[4]), ty_args=[T.Tensor((4,), "float32")])
    with T.launch_thread("threadIdx.x", 4) as tx:
        B[tx] = V[tx]
"""

VIEW_ADDRESS_INDEX = """
@T.function
def main(A: T.Tensor((16,), "float32"), K: T.Tensor((1,), "int32"), B: T.Tensor((8,), "float32")):
    V = T.decl_tensor(T.address_of(A[K[0]]), ty_args=[T.Tensor((4,), "float32")])
    with T.launch_thread("threadIdx.x", 4) as tx:
        B[tx] = V[tx]
"""

POINTER_PARAM = """
@T.function
def main(a: T.handle("float32", "global"), B: T.Tensor((8,), "float32")):
    A = T.decl_tensor(a, ty_args=[T.Tensor((8,), "float32")])
    A[0] = T.float32(1.0)
    with T.launch_thread("threadIdx.x", 8) as tx:
        B[tx] = A[tx]
"""

SECOND_PARAM = """
@T.function
def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
    B[0] = T.float32(1.0)
    with T.launch_thread("threadIdx.x", 8) as tx:
        A[tx] = B[tx]
"""

UNBOUND = """
@T.function
def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
    for i in range(8):
        C[i] = B[i] + T.float32(1.0)
"""

HOST_GLOBAL = """
@T.function
def main(B: T.Tensor((8,), "float32")):
    G = T.alloc_tensor(
        ty_args=[T.Tensor((8,), "float32")],
        annotations={"disable_lower_builtin": 1},
    )
    G[0] = T.float32(1.0)
    with T.launch_thread("threadIdx.x", 8) as tx:
        B[tx] = T.float32(1.0)
"""

DEMOS = {
    "blind9-vm-outer-extent-only": Demo(_script(NESTED_EXTENT), _verified()),
    "blind9-vm-no-shared-dyn": Demo(_script(SHARED_DYN), _verified()),
    "blind9-vm-address-of-accesses": Demo(_script(VIEW_ADDRESS), _verified()),
    "blind9-vm-address-of-no-indices": Demo(_script(VIEW_ADDRESS_INDEX), _verified()),
    "blind9-vm-buffer-params-only": Demo(_script(POINTER_PARAM), _verified()),
    "blind9-vm-first-param-only": Demo(_script(SECOND_PARAM), _verified()),
    "blind9-vm-no-webgpu": Demo(_script(UNBOUND), _verified("webgpu")),
    "blind9-vm-entry-needs-host": Demo(_script(UNBOUND), _verified(host=None)),
    "blind9-vm-disable-lower-builtin": Demo(_script(HOST_GLOBAL), _verified()),
}
