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
"""Round 11 demos on apache/tvm-tirx: demos_round11.py's kernels in that line's
API (``T.function``, ``T.Tensor``, ``T.launch_thread``), compiled for WebGPU or Metal with
``tvm_tirx.tirx.compile``; the result is "compiles" or the refusal's first line.

The 8-lane kernel is written with explicit ramps (this line's pipeline does not turn an
8-lane ``T.vectorized`` loop into vectors), the extern call passes its return type as
``ty=``. Every wrong fix of the round shows here too.
"""

from tvm_tirx.script import tirx as T

from bugs.codegen_missing_dtype.demos_round8 import build_for as compiled
from harness.blind_demo import Demo


def uint64_cast():
    """A uint64 value only in the body (the tensor is float32)."""

    @T.function
    def main(A: T.Tensor((1,), "float32"), n: T.int32):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float32", T.Cast("uint64", n) * T.uint64(3))

    return main


def eight_lanes():
    """An 8-lane float32 sum (WGSL vectors have 2 to 4 lanes, Metal's too)."""

    @T.function
    def main(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            A[T.ramp(0, 1, 8)] = B[T.ramp(0, 1, 8)] + B[T.ramp(0, 1, 8)]

    return main


def bool_vector_mask():
    """A 4-lane comparison bound by a let, read by a select: a boolx4 value the code
    generator must print a type for."""

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            m = B[T.ramp(0, 1, 4)] > T.Broadcast(T.float32(0), 4)
            A[T.ramp(0, 1, 4)] = T.Select(m, B[T.ramp(0, 1, 4)], T.Broadcast(T.float32(1), 4))

    return main


def float64_argument():
    """A float64 kernel scalar argument (the runtime packs 32-bit words only)."""

    @T.function
    def main(A: T.Tensor((1,), "float32"), x: T.float64):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float32", x)

    return main


def uint64_argument():
    """A uint64 kernel scalar argument."""

    @T.function
    def main(A: T.Tensor((1,), "float32"), x: T.uint64):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float32", x)

    return main


def float64_constant():
    """A float64 constant that only an extern call reads: the FloatImm printer meets it
    before any float64 type is printed."""

    @T.function
    def main(A: T.Tensor((1,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.call_pure_extern("scale", T.float64(1.5), ty=T.float32)

    return main


def float64_cast():
    """The issue's kernel: a float64 tensor storing a cast of the scalar argument."""

    @T.function
    def main(A: T.Tensor((1,), "float64"), n: T.int32):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast("float64", n)

    return main


def float64x2_value():
    """float32 tensors, a float64x2 value bound by a let and squared (2 lanes: only its
    element is missing)."""

    @T.function
    def main(A: T.Tensor((2,), "float32"), B: T.Tensor((2,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            b = T.Cast("float64x2", B[T.ramp(0, 1, 2)])
            A[T.ramp(0, 1, 2)] = T.Cast("float32x2", b * b)

    return main


DEMOS = {
    "blind11-webgpu-uint64-icheck-kept": Demo(uint64_cast, compiled("webgpu")),
    "blind11-webgpu-lanes-icheck-kept": Demo(eight_lanes, compiled("webgpu")),
    "blind11-webgpu-final-throw-kept": Demo(bool_vector_mask, compiled("webgpu")),
    "blind11-webgpu-pod-arg-internal": Demo(float64_argument, compiled("webgpu")),
    "blind11-webgpu-float-const-internal": Demo(float64_constant, compiled("webgpu")),
    "blind11-metal-untouched": Demo(float64_cast, compiled("metal")),
    "blind11-metal-vector-lanes-internal": Demo(eight_lanes, compiled("metal")),
    "blind11-webgpu-pod-arg-typeerror": Demo(uint64_argument, compiled("webgpu")),
    "blind11-webgpu-names-element-type": Demo(float64x2_value, compiled("webgpu")),
    "blind11-webgpu-pod-arg-script-name": Demo(float64_argument, compiled("webgpu")),
}
