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
"""Blind round 8: demos of the WebGPU view-at-an-address report's wrong fixes on
apache/tvm-tirx (round 8 of bugs/webgpu_view_at_address/wrong_fixes.toml): the programs of
demos_round8.py in that line's API (``T.function``, ``T.Tensor``, ``T.launch_thread``, views
bound by ``T.decl_tensor``, ``T.tensor_data_ptr`` for a tensor's data). The observed result is
what ``tirx.compile`` for webgpu gives: "compiles", or the error's kind and line.
"""

from bugs.webgpu_view_at_address.demos_round8 import webgpu_result
from harness.blind_demo import Demo


def two_views_program():
    """A view over a parameter's data, then a view at an address of the other parameter."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            V1 = T.decl_tensor(T.tensor_data_ptr(A), ty_args=[T.Tensor((4,), "float32")])
            V2 = T.decl_tensor(T.address_of(B[1]), ty_args=[T.Tensor((1,), "float32")])
            B[0] = V1[1] + V2[0]

    return main


def reinterpret_program():
    """A view over a pointer reinterpreted from an int64 parameter."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32"), n: T.int64):
        with T.launch_thread("threadIdx.x", 1):
            V = T.decl_tensor(
                T.reinterpret(n, ty_args=[T.handle("float32", "global").ty]),
                ty_args=[T.Tensor((1,), "float32")],
            )
            B[0] = V[0]

    return main


def byte_offset_program():
    """A view at a byte offset of a parameter's data (not an address_of)."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            V = T.decl_tensor(
                T.handle_add_byte_offset(T.tensor_data_ptr(A), 4),
                ty_args=[T.Tensor((1,), "float32")],
            )
            B[0] = V[0]

    return main


def shared_view_program():
    """A shared view at an element's address of a shared allocation."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
        with T.launch_thread("threadIdx.x", 4) as t:
            S = T.alloc_shared((4,), "float32")
            S[t] = A[t]
            V = T.decl_tensor(
                T.address_of(S[1]), ty_args=[T.Tensor((1,), "float32", scope="shared")]
            )
            B[t] = V[0]

    return main


def address_view_program():
    """The issue's program: a view of A[0] in a kernel."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((1,), "float32"), B: T.Tensor((1,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            A_k = T.decl_tensor(T.address_of(A[0]), ty_args=[T.Tensor((1,), "float32")])
            B[0] = A_k[0]

    return main


DEMOS = {
    "blind8-var-only": Demo(two_views_program, webgpu_result),
    "blind8-any-call": Demo(reinterpret_program, webgpu_result),
    "blind8-address-of-only": Demo(byte_offset_program, webgpu_result),
    "blind8-global-only": Demo(shared_view_program, webgpu_result),
    "blind8-type-error": Demo(address_view_program, webgpu_result),
    "blind8-check-after-visit": Demo(address_view_program, webgpu_result),
}
