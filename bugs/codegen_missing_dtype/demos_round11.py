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
"""Round 11 demos on apache/tvm: a kernel per wrong fix, compiled for WebGPU or
Metal; the result is "compiles" or the refusal's first line (its class and message).

Each program is one the code generator refuses at the site (or for the type) that its wrong
fix models wrongly: a uint64 cast, a vectorized loop of 8 lanes, a let-bound bool vector
mask, a float64 or uint64 kernel scalar argument, a float64 constant passed only to an
extern call, a float64 cast for Metal, a float64x2 value computed from float32 buffers.
"""

from bugs.codegen_missing_dtype.demos_round8 import build_for as compiled
from harness.blind_demo import Demo
from tvm.script import tirx as T


def uint64_cast():
    """A uint64 value only in the body (the buffer is float32)."""

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), n: T.int32):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast("float32", T.Cast("uint64", n) * T.uint64(3))

    return main


def eight_lanes():
    """A vectorized loop of 8 float32 lanes (WGSL vectors have 2 to 4, Metal's too)."""

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            for i in T.vectorized(8):
                A[i] = B[i] + B[i]

    return main


def bool_vector_mask():
    """A 4-lane comparison bound by a let, read by a select: a boolx4 value the code
    generator must print a type for."""

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            m = B[T.ramp(0, 1, 4)] > T.Broadcast(T.float32(0), 4)
            A[T.ramp(0, 1, 4)] = T.Select(m, B[T.ramp(0, 1, 4)], T.Broadcast(T.float32(1), 4))

    return main


def float64_argument():
    """A float64 kernel scalar argument (the runtime packs 32-bit words only)."""

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), x: T.float64):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast("float32", x)

    return main


def uint64_argument():
    """A uint64 kernel scalar argument."""

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), x: T.uint64):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast("float32", x)

    return main


def float64_constant():
    """A float64 constant that only an extern call reads: the FloatImm printer meets it
    before any float64 type is printed."""

    @T.prim_func
    def main(A: T.Buffer((1,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.call_pure_extern("float32", "scale", T.float64(1.5))

    return main


def float64_cast():
    """The issue's kernel: a float64 buffer storing a cast of the scalar argument."""

    @T.prim_func
    def main(A: T.Buffer((1,), "float64"), n: T.int32):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast("float64", n)

    return main


def float64x2_value():
    """float32 buffers, a float64x2 value bound by a let and squared (2 lanes: only its
    element is missing)."""

    @T.prim_func
    def main(A: T.Buffer((2,), "float32"), B: T.Buffer((2,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            b = T.Cast("float64x2", B[T.ramp(0, 1, 2)])
            A[T.ramp(0, 1, 2)] = T.Cast("float32x2", b * b)

    return main


def demos(build):
    """The demos, over ``build`` (this line's program builders by name) and ``compiled``."""
    return {
        "blind11-webgpu-uint64-icheck-kept": Demo(build["uint64_cast"], compiled("webgpu")),
        "blind11-webgpu-lanes-icheck-kept": Demo(build["eight_lanes"], compiled("webgpu")),
        "blind11-webgpu-final-throw-kept": Demo(build["bool_vector_mask"], compiled("webgpu")),
        "blind11-webgpu-pod-arg-internal": Demo(build["float64_argument"], compiled("webgpu")),
        "blind11-webgpu-float-const-internal": Demo(build["float64_constant"], compiled("webgpu")),
        "blind11-metal-untouched": Demo(build["float64_cast"], compiled("metal")),
        "blind11-metal-vector-lanes-internal": Demo(build["eight_lanes"], compiled("metal")),
        "blind11-webgpu-pod-arg-typeerror": Demo(build["uint64_argument"], compiled("webgpu")),
        "blind11-webgpu-names-element-type": Demo(build["float64x2_value"], compiled("webgpu")),
        "blind11-webgpu-pod-arg-script-name": Demo(build["float64_argument"], compiled("webgpu")),
    }


DEMOS = demos(globals())
