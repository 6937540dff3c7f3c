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
"""Blind round 7 demos of the WebGPU/Metal missing-type fix on apache/tvm-tirx: valid WebGPU
kernels."""

from harness.blind_demo import Demo, message


def kernel(dtype):
    """A[t] = B[t] + B[t] on webgpu, over tensors of ``dtype`` (a vector type too)."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), dtype), B: T.Tensor((8,), dtype)):
        with T.launch_thread("threadIdx.x", 8) as t:
            A[t] = B[t] + B[t]

    return main


def build(func):
    import tvm_tirx

    try:
        tvm_tirx.tirx.compile(func, target="webgpu")
        return "compiles"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


DEMOS = {
    "blind7-cmd-float-demorgan": Demo(lambda: kernel("float32"), build),
    "blind7-cmd-float-f16-dropped": Demo(lambda: kernel("float16"), build),
    "blind7-cmd-lanes-off-by-one": Demo(lambda: kernel("int32x4"), build),
    "blind7-cmd-uint-inverted": Demo(lambda: kernel("uint32"), build),
    "blind7-cmd-lanes-check-hoisted": Demo(lambda: kernel("float32x2"), build),
    "blind7-cmd-int-inverted": Demo(lambda: kernel("int32"), build),
}
