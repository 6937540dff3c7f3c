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
"""Blind round 6 demos of the WebGPU/Metal missing-type ValueError (apache/tvm)."""

from harness.blind_demo import Demo


def kernels(params, *bodies, n=8):
    """A function of ``params`` ("name: type" texts) with one kernel (a threadIdx.x loop) per
    body (statement lines, indented by the kernel)."""

    def build():
        from tvm.script import from_source

        text = f"@T.prim_func\ndef main({', '.join(params)}):\n"
        for k, body in enumerate(bodies):
            text += f"    for t{k} in T.thread_binding({n}, thread='threadIdx.x'):\n"
            text += "".join(f"        {line}\n" for line in body)
        return from_source(text)

    return build


def refusal(target):
    """Observer: what tvm.compile for ``target`` raises (or that it compiles)."""

    def observe(func):
        import tvm

        try:
            tvm.compile(func, target=target)
            return "compiles"
        except Exception as err:  # the result: an error's kind and first line
            return f"{type(err).__name__}: {str(err).strip().splitlines()[0][:200]}"

    return observe


F64 = "T.Cast('float32', T.Cast('float64', n) * T.float64(0.5))"

DEMOS = {
    # metal: the second of two kernels computes in float64
    "blind6-cmd-first-func-only": Demo(
        kernels(
            ["A: T.Buffer((8,), 'int32')", "B: T.Buffer((8,), 'float32')", "n: T.int32"],
            ["A[t0] = n"],
            [f"B[t1] = {F64}"],
        ),
        refusal("metal"),
    ),
    # metal: an int64 buffer (Metal has long), float64 in the arithmetic
    "blind6-cmd-metal-int64-lacking": Demo(
        kernels(
            ["A: T.Buffer((8,), 'int64')", "B: T.Buffer((8,), 'float32')", "n: T.int32"],
            ["A[t0] = T.Cast('int64', n)", f"B[t0] = {F64}"],
        ),
        refusal("metal"),
    ),
    # webgpu: a uint32 kernel argument, float64 in the arithmetic
    "blind6-cmd-webgpu-uint32-arg": Demo(
        kernels(["B: T.Buffer((8,), 'float32')", "n: T.uint32"], [f"B[t0] = {F64}"]),
        refusal("webgpu"),
    ),
    # webgpu: an 8-lane float32 vector store
    "blind6-cmd-lanes-after-scalar": Demo(
        kernels(
            ["B: T.Buffer((64,), 'float32')", "x: T.float32"],
            ["B[T.Ramp(t0 * 8, 1, 8)] = T.Broadcast(x, 8)"],
        ),
        refusal("webgpu"),
    ),
    # webgpu: float64 only inside the kernel's arithmetic
    "blind6-cmd-webgpu-body-skipped": Demo(
        kernels(["B: T.Buffer((8,), 'float32')", "n: T.int32"], [f"B[t0] = {F64}"]),
        refusal("webgpu"),
    ),
    # webgpu: an int64 buffer and a float16 kernel argument
    "blind6-cmd-scalars-first": Demo(
        kernels(["A: T.Buffer((8,), 'int64')", "h: T.float16"], ["A[t0] = T.Cast('int64', h)"]),
        refusal("webgpu"),
    ),
}
