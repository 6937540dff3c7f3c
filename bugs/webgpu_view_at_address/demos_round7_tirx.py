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
"""Blind round 7 demos of the WebGPU view-at-an-address fix on apache/tvm-tirx: kernels with
views, built for webgpu."""

from harness.blind_demo import Demo, message


def view_kernel(form):
    """A WebGPU kernel reading B[t] through a view V of ``form``: "param" (V over A.data),
    "view" (over another view of A), "address" (at A[t]'s address)."""
    from tvm_tirx.script import tirx as T

    if form == "param":

        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
            with T.launch_thread("threadIdx.x", 8) as t:
                V = T.decl_tensor(A.data, ty_args=[T.Tensor((8,), "float32")])
                B[t] = V[t]

    elif form == "view":

        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
            with T.launch_thread("threadIdx.x", 8) as t:
                V = T.decl_tensor(A.data, ty_args=[T.Tensor((8,), "float32")])
                W = T.decl_tensor(V.data, ty_args=[T.Tensor((4, 2), "float32")])
                B[t] = W[t // 2, t % 2]

    else:

        @T.function
        def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
            with T.launch_thread("threadIdx.x", 8) as t:
                V = T.decl_tensor(T.address_of(A[t]), ty_args=[T.Tensor((1,), "float32")])
                B[t] = V[0] * T.float32(2)

    return main


def build_webgpu(func):
    import tvm_tirx

    try:
        tvm_tirx.tirx.compile(func, target="webgpu")
        return "compiles"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


DEMOS = {
    "blind7-wva-no-buffer-data": Demo(lambda: view_kernel("param"), build_webgpu),
    "blind7-wva-null-accepted": Demo(lambda: view_kernel("address"), build_webgpu),
    "blind7-wva-own-data": Demo(lambda: view_kernel("view"), build_webgpu),
}
