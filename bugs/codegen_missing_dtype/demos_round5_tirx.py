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
"""Blind round 5 demos of the missing-dtype refusal (apache/tvm-tirx): the programs of
demos_round5.py written for tvm_tirx, each compiled for WebGPU or Metal ("compiles" or the
error's kind and first line)."""

from harness.blind_demo import Demo, message


def compiled_for(target):
    """Observer: tvm_tirx.tirx.compile for ``target``: "compiles", or the error's kind and
    line."""

    def observe(func):
        import tvm_tirx

        try:
            tvm_tirx.tirx.compile(func, target=target)
            return "compiles"
        except Exception as err:  # the result: an error
            return f"{type(err).__name__}: {message(err)}"

    return observe


def two_kernels():
    """Two kernels; only the second computes in float64."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32"), n: T.int32):
        with T.launch_thread("threadIdx.x", 4) as t:
            A[t] = T.Cast("float32", n)
        with T.launch_thread("threadIdx.x", 4) as t:
            B[t] = T.Cast("float32", T.Cast("float64", n) * T.float64(0.5))

    return main


def nested_float64():
    """One kernel storing float32 computed through a float64 cast nested in the value."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32"), n: T.int32):
        with T.launch_thread("threadIdx.x", 4) as t:
            A[t] = T.Cast("float32", T.Cast("float64", n) + T.float64(1.5))

    return main


def vector8():
    """One kernel storing a float32x8 vector into a tensor of float32x8 elements."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((1,), "float32x8"), n: T.int32):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Broadcast(T.Cast("float32", n), 8)

    return main


def scalar_into(buffer_dtype, arg_dtype):
    """One kernel storing a cast of its scalar argument (``arg_dtype``) into a tensor of
    ``buffer_dtype``."""
    from tvm_tirx.script import tirx as T

    arg = getattr(T, arg_dtype)

    @T.function
    def main(A: T.Tensor((4,), buffer_dtype), n: arg):
        with T.launch_thread("threadIdx.x", 4) as t:
            A[t] = T.Cast(buffer_dtype, n)

    return main


DEMOS = {
    "blind5-webgpu-first-kernel-only": Demo(two_kernels, compiled_for("webgpu")),
    "blind5-metal-not-wrapped": Demo(nested_float64, compiled_for("metal")),
    "blind5-webgpu-element-before-lanes": Demo(vector8, compiled_for("webgpu")),
    "blind5-metal-no-lane-limit": Demo(vector8, compiled_for("metal")),
    "blind5-body-vars-only": Demo(nested_float64, compiled_for("webgpu")),
    "blind5-check-before-build": Demo(
        lambda: scalar_into("int32", "int64"), compiled_for("webgpu")
    ),
    "blind5-webgpu-signed-64-only": Demo(
        lambda: scalar_into("uint64", "int32"), compiled_for("webgpu")
    ),
}
