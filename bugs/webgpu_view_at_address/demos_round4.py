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
"""Blind round 4 demos of the WebGPU view-at-an-address wrong fixes (apache/tvm): what
tvm.compile for WebGPU ends with (compiled, or the error's kind and line)."""

import tvm
from harness.blind_demo import Demo, message
from tvm.script import tirx as T


def webgpu(func):
    try:
        tvm.compile(func, target="webgpu")
        return "compiled"
    except Exception as err:
        return f"{type(err).__name__}: {message(err)}"


def view_at(data):
    """A kernel reading its thread's element through a view W over ``data(A, t)``."""

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            W = T.decl_buffer((1,), "float32", data=data(A, t))
            B[t] = W[0]

    return main


@T.prim_func
def valid_view_first(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        V = T.decl_buffer((4,), "float32", data=A.data)  # valid: names A's storage
        W = T.decl_buffer((1,), "float32", data=T.address_of(A[t]))
        B[t] = V[t] + W[0]


@T.prim_func
def shared_view_first(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        S = T.alloc_buffer((4,), "float32", scope="shared")
        V = T.decl_buffer((4,), "float32", data=S.data, scope="shared")  # valid: names S
        V[t] = A[t]
        W = T.decl_buffer((1,), "float32", data=T.address_of(A[t]))
        B[t] = S[t] + W[0]


@T.prim_func
def shared_view(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        S = T.alloc_buffer((4,), "float32", scope="shared")
        S[t] = A[t]
        W = T.decl_buffer((1,), "float32", data=T.address_of(S[t]), scope="shared")
        B[t] = W[0]


@T.prim_func
def float64_first(A: T.Buffer((4,), "float64"), B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):  # refused first for its float64
        W = T.decl_buffer((1,), "float32", data=T.address_of(B[t]))
        B[t] = W[0] + T.Cast("float32", A[t])


@T.prim_func
def second_kernel(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
    for t in T.thread_binding(4, thread="threadIdx.x"):
        B[t] = A[t]
    for t in T.thread_binding(4, thread="threadIdx.x"):
        W = T.decl_buffer((1,), "float32", data=T.address_of(A[t]))  # the second kernel's
        B[t] = B[t] + W[0]


DEMOS = {
    "blind4-var-only": Demo(lambda: valid_view_first, webgpu),
    "blind4-params-only": Demo(lambda: shared_view_first, webgpu),
    "blind4-scope-ignored": Demo(lambda: shared_view, webgpu),
    "blind4-any-refusal": Demo(lambda: float64_first, webgpu),
    "blind4-first-kernel-only": Demo(lambda: second_kernel, webgpu),
    "blind4-address-of-only": Demo(
        lambda: view_at(lambda A, t: T.ptr_byte_offset(A.data, t * 4, "float32")), webgpu
    ),
}
