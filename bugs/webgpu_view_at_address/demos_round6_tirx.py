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
"""Blind round 6 demos of WebGPU's refusal of a kernel's view at an address (apache/tvm-tirx)."""

from harness.blind_demo import Demo


def kernels(*bodies):
    """A function of A, B (float32, 8 elements) with one kernel (a launch_thread region) per
    body (statement lines inside the kernel; {t} is the kernel's number)."""

    def build():
        from tvm_tirx.script import from_source

        text = (
            "@T.function\ndef main(A: T.Tensor((8,), 'float32'), B: T.Tensor((8,), 'float32')):\n"
        )
        for k, body in enumerate(bodies):
            text += "    with T.launch_thread('threadIdx.x', 1):\n"
            text += "".join(f"        {line.format(t=k)}\n" for line in body)
        from tvm_tirx.script import tirx as T

        return from_source(text, extra_vars={"T": T})

    return build


def webgpu_refusal(func):
    """What compile for webgpu raises (or that it compiles)."""
    import tvm_tirx

    try:
        tvm_tirx.tirx.compile(func, target="webgpu")
        return "compiles"
    except Exception as err:  # the result: an error's kind and first line
        return f"{type(err).__name__}: {str(err).strip().splitlines()[0][:160]}"


def at(k, index):
    return f"V{k} = T.decl_tensor(T.address_of(A[{index}]), ty_args=[T.Tensor((1,), 'float32')])"


DEMOS = {
    "blind6-wva-first-kernel-only": Demo(
        kernels(["B[{t}] = A[{t}]"], [at(0, "{t}"), "B[{t} + 4] = V0[0]"]), webgpu_refusal
    ),
    "blind6-wva-any-call-names": Demo(kernels([at(0, "{t}"), "V0[0] = B[{t}]"]), webgpu_refusal),
    "blind6-wva-scope-check-ignored": Demo(
        kernels([at(0, "{t} + 2"), "B[{t}] = V0[0]"]), webgpu_refusal
    ),
    "blind6-wva-last-view": Demo(
        kernels([at(0, "{t}"), at(1, "{t} + 4"), "B[{t}] = V0[0] + V1[0]"]), webgpu_refusal
    ),
}
