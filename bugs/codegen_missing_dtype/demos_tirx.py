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
"""Programs on which the WebGPU/Metal code generators' reference fix and each blind wrong fix
differ, on apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python
scripts/blind_demos.py --bug codegen_missing_dtype): demos.py's kernels, each in a launch region.

Compared: whether the kernel compiles for the target named beside it, or the error that refuses
it."""

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo


def compiles(target):
    """The observer: compile the program for ``target``; an error is the harness's result."""

    def observe(func):
        tvm_tirx.tirx.compile(func, target=target)
        return "compiles"

    return observe


@T.function
def float64_in_second_kernel(A: T.Tensor((1,), "float32"), B: T.Tensor((1,), "float64")):
    with T.launch_thread("threadIdx.x", 1) as t:
        A[0] = T.float32(1)
    with T.launch_thread("threadIdx.x", 1) as t:  # noqa: F841 (the launch binds it)
        B[0] = T.float64(2)


@T.function
def int64_to_float64(A: T.Tensor((1,), "int64"), B: T.Tensor((1,), "float64")):
    with T.launch_thread("threadIdx.x", 1) as t:  # noqa: F841 (the launch binds it)
        B[0] = T.Cast("float64", A[0])


@T.function
def float64_in_body(A: T.Tensor((1,), "float32"), B: T.Tensor((1,), "float32")):
    with T.launch_thread("threadIdx.x", 1) as t:  # noqa: F841 (the launch binds it)
        B[0] = T.Cast("float32", T.Cast("float64", A[0]) * T.float64(3.0))


@T.function
def float16_argument(A: T.Tensor((1,), "float16"), n: T.float16):
    with T.launch_thread("threadIdx.x", 1) as t:  # noqa: F841 (the launch binds it)
        A[0] = n


@T.function
def narrowed_int64(A: T.Tensor((4,), "float32"), n: T.int32):
    with T.launch_thread("threadIdx.x", 4) as t:
        A[t] = T.Cast("float32", T.Cast("int64", n) * T.int64(3) // T.int64(2))


@T.function
def uint64_buffer(A: T.Tensor((1,), "uint64"), n: T.int32):
    with T.launch_thread("threadIdx.x", 1) as t:  # noqa: F841 (the launch binds it)
        A[0] = T.Cast("uint64", n)


@T.function
def eight_lanes(A: T.Tensor((8,), "float32"), B: T.Tensor((8,), "float32")):
    with T.launch_thread("threadIdx.x", 1) as t:  # noqa: F841 (the launch binds it)
        A[T.ramp(0, 1, 8)] = B[T.ramp(0, 1, 8)] + B[T.ramp(0, 1, 8)]


DEMOS = {
    # Metal, two kernels, float64 in the second: the wrong fix looks at the first function only
    "blind3-first-function-only": Demo(lambda: float64_in_second_kernel, compiles("metal")),
    # Metal, int64 in (Metal has long), float64 out: the wrong fix's error names int64
    "blind3-metal-no-long": Demo(lambda: int64_to_float64, compiles("metal")),
    # Metal, float32 tensors, float64 in the body: the wrong fix scans the parameters only
    "blind3-params-only": Demo(lambda: float64_in_body, compiles("metal")),
    # WebGPU, a float16 scalar argument (WGSL has f16, the runtime passes i32, u32, f32 only):
    # the wrong fix checks the argument against WGSL's types
    "blind3-scalar-args-as-storage": Demo(lambda: float16_argument, compiles("webgpu")),
    # VALID: WebGPU int64 arithmetic that the code generator narrows to i32: the wrong fix scans
    # before the build and refuses it
    "blind3-scan-before-build": Demo(lambda: narrowed_int64, compiles("webgpu")),
    # WebGPU, a uint64 tensor: the wrong fix refuses 64-bit signed integers only
    "blind3-uint64-internal": Demo(lambda: uint64_buffer, compiles("webgpu")),
    # WebGPU, an 8-lane vector add (WGSL has 2 to 4 lanes): the wrong fix ignores the lanes
    "blind3-vector-lanes-ignored": Demo(lambda: eight_lanes, compiles("webgpu")),
}
