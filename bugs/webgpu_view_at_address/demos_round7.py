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
"""Blind round 7 demos of the WebGPU view-at-an-address fix: kernels with views, built for
webgpu."""

from harness.blind_demo import Demo, message


def view_kernel(form):
    """A WebGPU kernel reading B[t] through a view V of ``form``: "param" (V over A.data),
    "shared" (over a shared allocation), "view" (over another view of A), "address" (at
    A[t]'s address), "shared-address" (a shared view at a shared element's address), "none"
    (no view: only the parameters' own declarations)."""
    from tvm.script import tirx as T

    if form == "param":

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            for t in T.thread_binding(8, thread="threadIdx.x"):
                V = T.decl_buffer((8,), "float32", data=A.data)
                B[t] = V[t]

    elif form == "shared":

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            for t in T.thread_binding(8, thread="threadIdx.x"):
                S = T.alloc_buffer((8,), "float32", scope="shared")
                S[t] = A[t]
                V = T.decl_buffer((8,), "float32", data=S.data, scope="shared")
                B[t] = V[t] + T.float32(1)

    elif form == "view":

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            for t in T.thread_binding(8, thread="threadIdx.x"):
                V = T.decl_buffer((8,), "float32", data=A.data)
                W = T.decl_buffer((4, 2), "float32", data=V.data)
                B[t] = W[t // 2, t % 2]

    elif form == "address":

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            for t in T.thread_binding(8, thread="threadIdx.x"):
                V = T.decl_buffer((1,), "float32", data=T.address_of(A[t]))
                B[t] = V[0] * T.float32(2)

    elif form == "none":

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            for t in T.thread_binding(8, thread="threadIdx.x"):
                B[t] = A[t] - T.float32(3)

    else:

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            for t in T.thread_binding(8, thread="threadIdx.x"):
                S = T.alloc_buffer((8,), "float32", scope="shared")
                S[t] = A[t]
                V = T.decl_buffer((1,), "float32", data=T.address_of(S[t]), scope="shared")
                B[t] = V[0]

    return main


def build_webgpu(func):
    import tvm

    try:
        tvm.compile(func, target=tvm.target.Target("webgpu", host="llvm"))
        return "compiles"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


DEMOS = {
    "blind7-wva-no-buffer-data": Demo(lambda: view_kernel("param"), build_webgpu),
    "blind7-wva-null-accepted": Demo(lambda: view_kernel("address"), build_webgpu),
    "blind7-wva-params-only": Demo(lambda: view_kernel("shared"), build_webgpu),
    "blind7-wva-no-view-of-view": Demo(lambda: view_kernel("view"), build_webgpu),
    "blind7-wva-check-after": Demo(lambda: view_kernel("shared-address"), build_webgpu),
    "blind7-wva-own-data": Demo(lambda: view_kernel("none"), build_webgpu),
}
