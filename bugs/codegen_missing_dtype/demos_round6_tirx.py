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
"""Blind round 6 demos of the WebGPU/Metal missing-type ValueError (apache/tvm-tirx)."""

from harness.blind_demo import Demo


def kernels(params, *bodies):
    """A function of ``params`` ("name: type" texts) with one kernel (a launch_thread region)
    per body (statement lines inside the kernel; {t} is the kernel's number)."""

    def build():
        from tvm_tirx.script import from_source
        from tvm_tirx.script import tirx as T

        text = f"@T.function\ndef main({', '.join(params)}):\n"
        for k, body in enumerate(bodies):
            text += "    with T.launch_thread('threadIdx.x', 1):\n"
            text += "".join(f"        {line.format(t=k)}\n" for line in body)
        return from_source(text, extra_vars={"T": T})

    return build


def refusal(target):
    """Observer: what compile for ``target`` raises (or that it compiles)."""

    def observe(func):
        import tvm_tirx

        try:
            tvm_tirx.tirx.compile(func, target=target)
            return "compiles"
        except Exception as err:  # the result: an error's kind and first line
            return f"{type(err).__name__}: {str(err).strip().splitlines()[0][:200]}"

    return observe


F64 = "T.Cast('float32', T.Cast('float64', n) * T.float64(0.5))"

DEMOS = {
    "blind6-cmd-first-func-only": Demo(
        kernels(
            ["A: T.Tensor((8,), 'int32')", "B: T.Tensor((8,), 'float32')", "n: T.int32"],
            ["A[{t}] = n"],
            [f"B[{{t}}] = {F64}"],
        ),
        refusal("metal"),
    ),
    "blind6-cmd-metal-int64-lacking": Demo(
        kernels(
            ["A: T.Tensor((8,), 'int64')", "B: T.Tensor((8,), 'float32')", "n: T.int32"],
            ["A[{t}] = T.Cast('int64', n)", f"B[{{t}}] = {F64}"],
        ),
        refusal("metal"),
    ),
    "blind6-cmd-webgpu-uint32-arg": Demo(
        kernels(["B: T.Tensor((8,), 'float32')", "n: T.uint32"], [f"B[{{t}}] = {F64}"]),
        refusal("webgpu"),
    ),
    "blind6-cmd-lanes-after-scalar": Demo(
        kernels(["B: T.Tensor((8,), 'float32x8')", "x: T.float32"], ["B[{t}] = T.Broadcast(x, 8)"]),
        refusal("webgpu"),
    ),
    "blind6-cmd-webgpu-body-skipped": Demo(
        kernels(["B: T.Tensor((8,), 'float32')", "n: T.int32"], [f"B[{{t}}] = {F64}"]),
        refusal("webgpu"),
    ),
    "blind6-cmd-scalars-first": Demo(
        kernels(["A: T.Tensor((8,), 'int64')", "h: T.float16"], ["A[{t}] = T.Cast('int64', h)"]),
        refusal("webgpu"),
    ),
}
