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
"""Blind round 5 demos of the missing-dtype refusal (apache/tvm): each compiles a small kernel
for WebGPU or Metal and prints "compiles" or the error's kind and line."""

from harness.blind_demo import Demo, message


def compiled_for(target):
    """Observer: tvm.compile for ``target``: "compiles", or the error's kind and line."""

    def observe(func):
        import tvm

        try:
            tvm.compile(func, target=target)
            return "compiles"
        except Exception as err:  # the result: an error
            return f"{type(err).__name__}: {message(err)}"

    return observe


def two_kernels():
    """Two kernels; only the second computes in float64."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32"), n: T.int32):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            A[t] = T.Cast("float32", n)
        for t in T.thread_binding(4, thread="threadIdx.x"):
            B[t] = T.Cast("float32", T.Cast("float64", n) * T.float64(0.5))

    return main


def nested_float64():
    """One kernel storing float32 computed through a float64 cast nested in the value."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), n: T.int32):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            A[t] = T.Cast("float32", T.Cast("float64", n) + T.float64(1.5))

    return main


def vector8():
    """One kernel storing a float32x8 vector into a buffer of float32x8 elements (no index
    vector: the only 8-lane type is float32x8)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32x8"), n: T.int32):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Broadcast(T.Cast("float32", n), 8)

    return main


def scalar_into(buffer_dtype, arg_dtype):
    """One kernel storing a cast of its scalar argument (``arg_dtype``) into a buffer of
    ``buffer_dtype``."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), buffer_dtype), n: tvm.tirx.Var("n", arg_dtype)):
        for t in T.thread_binding(4, thread="threadIdx.x"):
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
