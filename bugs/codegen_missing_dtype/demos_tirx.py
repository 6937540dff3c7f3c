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
scripts/blind_demos.py --bug codegen_missing_dtype): demos.py's kernels and observer, each
kernel a launch region of a ``T.Tensor`` function on this line.

Compared: whether the program compiles for the target named beside it, or the error that
refuses it."""

from bugs.codegen_missing_dtype.demos import (
    A64_B_N,
    A64_H,
    AB_N,
    B_N,
    B_U32,
    BROADCAST8,
    EIGHT_LANES,
    F64,
    FLOAT16_ARGUMENT,
    FLOAT64_IN_BODY,
    FLOAT64_IN_SECOND_KERNEL,
    INT64_TO_FLOAT64,
    METAL,
    NARROWED_INT64,
    NESTED_FLOAT64,
    TWO_KERNELS_M,
    TWO_KERNELS_N,
    UINT64_BUFFER,
    VECTOR8,
    WEBGPU,
    doubled,
    program,
    scalar_into,
    stored,
    through_float64,
)
from harness.blind_demo import Demo

DEMOS = {
    # round 3
    "blind3-first-function-only": Demo(FLOAT64_IN_SECOND_KERNEL, METAL),
    "blind3-metal-no-long": Demo(INT64_TO_FLOAT64, METAL),
    "blind3-params-only": Demo(FLOAT64_IN_BODY, METAL),
    "blind3-scalar-args-as-storage": Demo(FLOAT16_ARGUMENT, WEBGPU),
    "blind3-scan-before-build": Demo(NARROWED_INT64, WEBGPU),
    "blind3-uint64-internal": Demo(UINT64_BUFFER, WEBGPU),
    "blind3-vector-lanes-ignored": Demo(EIGHT_LANES, WEBGPU),
    # round 4
    "blind4-u32-not-passable": Demo(
        stored("float32", "uint32", through_float64("float32")), WEBGPU
    ),
    "blind4-scalars-before-buffers": Demo(stored("int64", "float16", "T.Cast('int64', m)"), WEBGPU),
    "blind4-type-before-lanes": Demo(BROADCAST8, WEBGPU),
    "blind4-f16-lacking": Demo(stored("float16", "int32", through_float64("float16")), WEBGPU),
    "blind4-metal-eight-lanes": Demo(BROADCAST8, METAL),
    "blind4-webgpu-first-kernel-only": Demo(TWO_KERNELS_M, WEBGPU),
    # round 5
    "blind5-webgpu-first-kernel-only": Demo(TWO_KERNELS_N, WEBGPU),
    "blind5-metal-not-wrapped": Demo(NESTED_FLOAT64, METAL),
    "blind5-webgpu-element-before-lanes": Demo(VECTOR8, WEBGPU),
    "blind5-metal-no-lane-limit": Demo(VECTOR8, METAL),
    "blind5-body-vars-only": Demo(NESTED_FLOAT64, WEBGPU),
    "blind5-check-before-build": Demo(scalar_into("int32", "int64"), WEBGPU),
    "blind5-webgpu-signed-64-only": Demo(scalar_into("uint64", "int32"), WEBGPU),
    # round 6: kernels of one thread, the first storing at 0, the second at 1
    "blind6-cmd-first-func-only": Demo(program(AB_N, ["A[0] = n"], [f"B[1] = {F64}"]), METAL),
    "blind6-cmd-metal-int64-lacking": Demo(
        program(A64_B_N, ["A[0] = T.Cast('int64', n)", f"B[0] = {F64}"]), METAL
    ),
    "blind6-cmd-webgpu-uint32-arg": Demo(program(B_U32, [f"B[0] = {F64}"]), WEBGPU),
    "blind6-cmd-lanes-after-scalar": Demo(
        program("B: T.Buffer((8,), 'float32x8'), x: T.float32", ["B[0] = T.Broadcast(x, 8)"]),
        WEBGPU,
    ),
    "blind6-cmd-webgpu-body-skipped": Demo(program(B_N, [f"B[0] = {F64}"]), WEBGPU),
    "blind6-cmd-scalars-first": Demo(program(A64_H, ["A[0] = T.Cast('int64', h)"]), WEBGPU),
    # round 7: valid WebGPU kernels
    "blind7-cmd-float-demorgan": Demo(doubled("float32"), WEBGPU),
    "blind7-cmd-float-f16-dropped": Demo(doubled("float16"), WEBGPU),
    "blind7-cmd-lanes-off-by-one": Demo(doubled("int32x4"), WEBGPU),
    "blind7-cmd-uint-inverted": Demo(doubled("uint32"), WEBGPU),
    "blind7-cmd-lanes-check-hoisted": Demo(doubled("float32x2"), WEBGPU),
    "blind7-cmd-int-inverted": Demo(doubled("int32"), WEBGPU),
}
