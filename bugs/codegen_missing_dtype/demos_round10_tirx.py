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
"""Blind round 10: demos of codegen_missing_dtype's wrong fixes on apache/tvm-tirx.

The programs of demos_round10.py in that line's API (``T.function``, ``T.Tensor``, a kernel
opened by ``T.launch_thread``); ``observe`` compiles each with ``tvm_tirx.tirx.compile`` for
WebGPU or Metal and reports "compiles" or the error's class and first line.
"""

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo


def copy_kernel(dtype):
    """A kernel copying one element of a ``dtype`` tensor into another."""

    @T.function
    def main(A: T.Tensor((8,), dtype), B: T.Tensor((8,), dtype)):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = B[1]

    return main


def float64_constant_first():
    """A float64 constant left of a float64 cast: the FloatImm printer meets it first."""

    @T.function
    def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float32", T.float64(2.5) + T.Cast("float64", B[1]))

    return main


def float64_scalar_argument():
    """A float64 host scalar read in the kernel: it becomes a float64 kernel argument."""

    @T.function
    def main(A: T.Tensor((8,), "float32"), x: T.float64):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float32", x)

    return main


def compiled(target):
    """An observer: compile the program for ``target``; an error is the runner's result."""

    def observe(program):
        tvm_tirx.tirx.compile(program, target=target)
        return "compiles"

    return observe


DEMOS = {
    "blind10-uint64-icheck-kept": Demo(lambda: copy_kernel("uint64"), compiled("webgpu")),
    "blind10-else-throw-kept": Demo(lambda: copy_kernel("float4_e2m1fn"), compiled("webgpu")),
    "blind10-floatimm-throw-kept": Demo(float64_constant_first, compiled("webgpu")),
    "blind10-podarg-script-type": Demo(float64_scalar_argument, compiled("webgpu")),
    "blind10-metal-float-switch-only": Demo(lambda: copy_kernel("float32x8"), compiled("metal")),
    "blind10-lanes-checked-last": Demo(lambda: copy_kernel("int64x8"), compiled("webgpu")),
    "blind10-vector-named-by-element": Demo(lambda: copy_kernel("int64x2"), compiled("webgpu")),
    "blind10-metal-type-error": Demo(lambda: copy_kernel("float64"), compiled("metal")),
}
