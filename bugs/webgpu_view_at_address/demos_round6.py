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
"""Blind round 6 demos of WebGPU's refusal of a kernel's view at an address (apache/tvm)."""

from harness.blind_demo import Demo


def kernels(*bodies, n=4):
    """A function of A, B (float32, 8 elements) with one kernel (a threadIdx.x loop) per body
    (statement lines inside the kernel)."""

    def build():
        from tvm.script import from_source

        text = (
            "@T.prim_func\ndef main(A: T.Buffer((8,), 'float32'), B: T.Buffer((8,), 'float32')):\n"
        )
        for k, body in enumerate(bodies):
            text += f"    for t{k} in T.thread_binding({n}, thread='threadIdx.x'):\n"
            text += "".join(f"        {line.format(t=f't{k}')}\n" for line in body)
        return from_source(text)

    return build


def webgpu_refusal(func):
    """What tvm.compile for webgpu raises (or that it compiles)."""
    import tvm

    try:
        tvm.compile(func, target="webgpu")
        return "compiles"
    except Exception as err:  # the result: an error's kind and first line
        return f"{type(err).__name__}: {str(err).strip().splitlines()[0][:160]}"


AT = "V{k} = T.decl_buffer((1,), 'float32', data=T.address_of(A[{t}]){scope})"


def at(k, t="{t}", scope=""):
    return AT.format(k=k, t=t, scope=scope)


DEMOS = {
    # the first kernel copies, the second reads through a view at its element
    "blind6-wva-first-kernel-only": Demo(
        kernels(["B[{t}] = A[{t}]"], [at(0), "B[{t} + 4] = V0[0]"]), webgpu_refusal
    ),
    # a view at the thread's element, written
    "blind6-wva-any-call-names": Demo(kernels([at(0), "V0[0] = B[{t}]"]), webgpu_refusal),
    # a shared view at a shared allocation's element
    "blind6-wva-scope-check-ignored": Demo(
        kernels(
            [
                "S = T.alloc_buffer((4,), 'float32', scope='shared')",
                "S[{t}] = A[{t}]",
                "W = T.decl_buffer((1,), 'float32', data=T.address_of(S[{t}]), scope='shared')",
                "B[{t}] = W[0]",
            ]
        ),
        webgpu_refusal,
    ),
    # two views at addresses in one kernel, the first one read first
    "blind6-wva-last-view": Demo(
        kernels([at(0), at(1, "{t} + 4"), "B[{t}] = V0[0] + V1[0]"]), webgpu_refusal
    ),
    # a view of a shared allocation (fine), then one at an address
    "blind6-wva-params-only-named": Demo(
        kernels(
            [
                "S = T.alloc_buffer((4,), 'float32', scope='shared')",
                "S[{t}] = A[{t}]",
                "W = T.decl_buffer((4,), 'float32', data=S.data, scope='shared')",
                at(0),
                "B[{t}] = W[{t}] + V0[0]",
            ]
        ),
        webgpu_refusal,
    ),
    # a view over a pointer a T.let binds to an element's address (compiles), then a view at an
    # address
    "blind6-wva-let-resolved": Demo(
        kernels(
            [
                "p: T.let[T.handle('float32')] = T.address_of(A[{t}])",
                "V0 = T.decl_buffer((1,), 'float32', data=p)",
                at(1, "{t} + 4"),
                "B[{t}] = V0[0] + V1[0]",
            ]
        ),
        webgpu_refusal,
    ),
}
