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
"""Blind round 4 demos of the missing-dtype wrong fixes on apache/tvm-tirx: what
tvm_tirx.tirx.compile for WebGPU or Metal ends with (compiled, or the error's kind and line)."""

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo, message


def kernel(a_dtype, m_dtype, value):
    """One kernel storing ``value(m)`` into ``A[0]`` (A of ``a_dtype``, m a scalar argument of
    ``m_dtype``)."""
    m_type = getattr(T, m_dtype)

    @T.function
    def main(A: T.Tensor((1,), a_dtype), m: m_type):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = value(m)

    return main


def through_float64(dtype):
    """``m`` to ``dtype`` through float64 arithmetic (a type neither WebGPU nor Metal has)."""
    return lambda m: T.Cast(dtype, T.Cast("float64", m) * T.float64(3))


@T.function
def two_kernels(A: T.Tensor((1,), "float32"), m: T.int32):
    with T.launch_thread("threadIdx.x", 1):
        A[0] = T.Cast("float32", m)  # valid
    with T.launch_thread("threadIdx.x", 1):
        A[0] = T.Cast("float32", T.Cast("float64", m) * T.float64(3))  # float64: the second


def build_on(target):
    def observe(func):
        try:
            tvm_tirx.tirx.compile(func, target=target)
            return "compiled"
        except Exception as err:
            return f"{type(err).__name__}: {message(err)}"

    return observe


WEBGPU, METAL = build_on("webgpu"), build_on("metal")

DEMOS = {
    "blind4-u32-not-passable": Demo(
        lambda: kernel("float32", "uint32", through_float64("float32")), WEBGPU
    ),
    "blind4-scalars-before-buffers": Demo(
        lambda: kernel("int64", "float16", lambda m: T.Cast("int64", m)), WEBGPU
    ),
    "blind4-type-before-lanes": Demo(
        lambda: kernel("float32x8", "float32", lambda m: T.Broadcast(m, 8)), WEBGPU
    ),
    "blind4-f16-lacking": Demo(
        lambda: kernel("float16", "int32", through_float64("float16")), WEBGPU
    ),
    "blind4-metal-eight-lanes": Demo(
        lambda: kernel("float32x8", "float32", lambda m: T.Broadcast(m, 8)), METAL
    ),
    "blind4-webgpu-first-kernel-only": Demo(lambda: two_kernels, WEBGPU),
}
