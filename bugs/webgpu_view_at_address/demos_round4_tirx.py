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
"""Blind round 4 demos of the WebGPU view-at-an-address wrong fixes on apache/tvm-tirx: what
tvm_tirx.tirx.compile for WebGPU ends with (compiled, or the error's kind and line).
blind4-scope-ignored and blind4-any-refusal have none (wrong_fixes_round4.NOT_ON_TVM_TIRX)."""

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo, message

ONE, FOUR = [T.Tensor((1,), "float32")], [T.Tensor((4,), "float32")]
FLOAT_PTR = tvm_tirx.ir.PtrType(tvm_tirx.ir.PrimType("float32"))


def webgpu(func):
    try:
        tvm_tirx.tirx.compile(func, target="webgpu")
        return "compiled"
    except Exception as err:
        return f"{type(err).__name__}: {message(err)}"


@T.function
def valid_view_first(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
    with T.launch_thread("threadIdx.x", 4) as t:
        V = T.decl_tensor(A.data, ty_args=FOUR)  # valid: names A's storage
        W = T.decl_tensor(T.address_of(A[t]), ty_args=ONE)
        B[t] = V[t] + W[0]


@T.function
def shared_view_first(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
    with T.launch_thread("threadIdx.x", 4) as t:
        S = T.alloc_shared((4,), "float32")
        V = T.decl_tensor(S.data, ty_args=[T.Tensor((4,), "float32", scope="shared")])  # valid
        V[t] = A[t]
        W = T.decl_tensor(T.address_of(A[t]), ty_args=ONE)
        B[t] = S[t] + W[0]


@T.function
def second_kernel(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
    with T.launch_thread("threadIdx.x", 4) as t:
        B[t] = A[t]
    with T.launch_thread("threadIdx.x", 4) as t:
        W = T.decl_tensor(T.address_of(A[t]), ty_args=ONE)  # the second kernel's
        B[t] = B[t] + W[0]


@T.function
def byte_offset_view(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
    with T.launch_thread("threadIdx.x", 4) as t:
        W = T.decl_tensor(T.ptr_byte_offset(A.data, t * 4, ty=FLOAT_PTR), ty_args=ONE)
        B[t] = W[0]


DEMOS = {
    "blind4-var-only": Demo(lambda: valid_view_first, webgpu),
    "blind4-params-only": Demo(lambda: shared_view_first, webgpu),
    "blind4-first-kernel-only": Demo(lambda: second_kernel, webgpu),
    "blind4-address-of-only": Demo(lambda: byte_offset_view, webgpu),
}
