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
"""Round 9 blind demos of the host_scalar report on apache/tvm-tirx: the programs of
demos_round9.py in this line's spelling (``alloc_tensor``, ``decl_tensor`` views, ``launch_thread``
regions), split for OpenCL with the same observer, or compiled for CUDA (no GPU needed; this
line loads no OpenCL runtime for the codegen) for the host's workspace calls."""

from bugs.host_scalar.demos_round9 import _script, split_cells, workspaces_on
from harness.blind_demo import Demo

_CUDA = {"kind": "cuda", "arch": "sm_80"}

INDEX = """
@T.function
def main(K: T.Tensor((8,), "int32"), C: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
    c[0] = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = c[K[tx]]
"""

TWO_ELEMENTS = """
@T.function
def main(C: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1, 2), "float32", scope="local")])
    c[0, 0] = T.float32(1.5)
    c[0, 1] = T.float32(2.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = c[0, 0]
"""

VECTOR = """
@T.function
def main(B: T.Tensor((8,), "float32x4"), C: T.Tensor((8,), "float32x4")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32x4", scope="local")])
    c[0] = T.Broadcast(T.float32(1.5), 4)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = B[tx] + c[0]
"""

TENSOR = """
@T.function
def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
    T.call_packed("f", c)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = B[tx]
"""

VIEW = """
@T.function
def main(C: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
    V = T.decl_tensor(c.data, ty_args=[T.Tensor((1,), "float32", scope="local")])
    with T.launch_thread("threadIdx.x", 8) as tx:
        V[0] = T.float32(1.5)
        C[tx] = V[0]
"""

VIEW_OF_VIEW = """
@T.function
def main(C: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
    V = T.decl_tensor(c.data, ty_args=[T.Tensor((1,), "float32", scope="local")])
    W = T.decl_tensor(V.data, ty_args=[T.Tensor((1,), "float32", scope="local")])
    W[0] = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = c[0]
"""

GLOBAL = """
@T.function
def main(C: T.Tensor((8,), "float32")):
    g = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32")])
    g[0] = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = g[0]
"""

CELL = """
@T.function
def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
    c[0] = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = B[tx] + c[0]
"""

TWO_KERNEL_USES = """
@T.function
def main(K: T.Tensor((8,), "int32"), C: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
    c[0] = T.float32(1.5)
    with T.launch_thread("threadIdx.x", 8) as tx:
        c[0] = T.float32(2.5)
        C[tx] = c[K[tx]]
"""

# a kernel-only buffer of the host code annotated with another device type (kDLCUDA)
ANNOTATED = """
@T.function
def main(C: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(
        ty_args=[T.Tensor((8,), "float32", scope="local")], annotations={"device_type": 2}
    )
    with T.launch_thread("threadIdx.x", 8) as tx:
        c[tx] = T.float32(1.5)
        C[tx] = c[tx]
"""

DEMOS = {
    "blind9-hs-index-unchecked": Demo(_script(INDEX), split_cells),
    "blind9-hs-first-extent-only": Demo(_script(TWO_ELEMENTS), split_cells),
    "blind9-hs-vector-lanes": Demo(_script(VECTOR), split_cells),
    "blind9-hs-tensor-is-host": Demo(_script(TENSOR), split_cells),
    "blind9-hs-view-decl-is-use": Demo(_script(VIEW), split_cells),
    "blind9-hs-view-of-view": Demo(_script(VIEW_OF_VIEW), split_cells),
    "blind9-hs-global-candidate": Demo(_script(GLOBAL), split_cells),
    "blind9-hs-device-id-kept": Demo(_script(CELL), workspaces_on(_CUDA)),
    "blind9-hs-any-annotation": Demo(_script(ANNOTATED), workspaces_on(_CUDA)),
    "blind9-hs-last-kernel-use": Demo(_script(TWO_KERNEL_USES), split_cells),
}
