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
scripts/blind_demos.py --bug codegen_missing_dtype): demos.py's entries (their kernels are
built on the line that runs them, each a launch region of a ``T.Tensor`` function here), but
round 6's, whose kernels have one thread here, and round 7's, seen through whether they compile.

Compared: whether the program compiles for the target named beside it, or the error that
refuses it."""

from bugs.codegen_missing_dtype.demos import (
    A64_B_N,
    A64_H,
    AB_N,
    B_N,
    B_U32,
    F64,
    METAL,
    WEBGPU,
    program,
)
from bugs.codegen_missing_dtype.demos import DEMOS as ON_APACHE
from harness.blind_demo import Demo, only

DEMOS = {
    **ON_APACHE,
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
    # round 7: valid WebGPU kernels (whether they compile)
    **only(
        ON_APACHE,
        "blind7-cmd-float-demorgan",
        "blind7-cmd-float-f16-dropped",
        "blind7-cmd-lanes-off-by-one",
        "blind7-cmd-uint-inverted",
        "blind7-cmd-lanes-check-hoisted",
        "blind7-cmd-int-inverted",
        observe=WEBGPU,
    ),
}
