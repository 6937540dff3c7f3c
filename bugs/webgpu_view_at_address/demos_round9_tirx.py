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
"""Blind round 9: patch 0015's wrong fixes on apache/tvm-tirx: the same views in
that line's API (``T.decl_tensor``, ``T.launch_thread``), compiled for webgpu.

``blind9-global-scope-only`` is left out: on tvm-tirx the code generator's own check, which
the reference fix rewords, comes before any storage-scope check, so a shared view at an
address meets the same refusal under it and under the reference fix."""

from bugs.webgpu_view_at_address.demos_round9 import demos
from harness.blind_demo import from_script, without

VIEW_AT_ZERO = """
@T.function
def main(A: T.Tensor((1,), "float32"), B: T.Tensor((1,), "float32")):
    with T.launch_thread("threadIdx.x", 1):
        A_k = T.decl_tensor(T.address_of(A[0]), ty_args=[T.Tensor((1,), "float32")])
        B[0] = A_k[0]
"""

VIEW_AT_ONE = """
@T.function
def main(A: T.Tensor((2,), "float32"), B: T.Tensor((1,), "float32")):
    with T.launch_thread("threadIdx.x", 1):
        A_k = T.decl_tensor(T.address_of(A[1]), ty_args=[T.Tensor((1,), "float32")])
        B[0] = A_k[0]
"""

VIEW_OF_DATA = """
@T.function
def main(A: T.Tensor((2,), "float32"), B: T.Tensor((2,), "float32")):
    with T.launch_thread("threadIdx.x", 2) as t:
        A_k = T.decl_tensor(A.data, ty_args=[T.Tensor((2,), "float32")])
        B[t] = A_k[t]
"""

VIEW_AT_OFFSET = """
@T.function
def main(A: T.Tensor((2,), "float32"), B: T.Tensor((1,), "float32")):
    with T.launch_thread("threadIdx.x", 1):
        V = T.decl_tensor(
            T.handle_add_byte_offset(A.data, 4), ty_args=[T.Tensor((1,), "float32")]
        )
        B[0] = V[0]
"""


def program(text):
    return lambda: from_script(text)


DEMOS = without(
    demos(
        program(VIEW_AT_ZERO),
        program(VIEW_OF_DATA),
        program(VIEW_AT_ONE),
        program(VIEW_AT_OFFSET),
        program(VIEW_AT_ONE),
    ),
    "blind9-global-scope-only",
)
