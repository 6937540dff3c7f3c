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
"""Blind round 8: demos of the WebGPU view-at-an-address report's wrong fixes
(round 8 of bugs/webgpu_view_at_address/wrong_fixes.toml), apache/tvm.

Each program declares a view inside a kernel; the observed result is what ``tvm.compile`` for
webgpu gives: "compiles", or the error's kind and line. The program builders take the line's
script module and its spellings, so that demos_round8_tirx.py builds the same programs there.
"""

from harness.blind_demo import Demo, line_package, message


def webgpu_result(func):
    """``tvm.compile(func, target="webgpu")`` (tvm-tirx: ``tirx.compile``): "compiles" or the
    error's kind and line."""
    package = line_package()
    build = package.compile if hasattr(package, "compile") else package.tirx.compile
    try:
        build(func, target="webgpu")
        return "compiles"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


def two_views_program():
    """A view over a parameter's data, then a view at an address of the other parameter."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            V1 = T.decl_buffer((4,), "float32", data=A.data)
            V2 = T.decl_buffer((1,), "float32", data=T.address_of(B[1]))
            B[0] = V1[1] + V2[0]

    return main


def reinterpret_program():
    """A view over a pointer reinterpreted from an int64 parameter."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32"), n: T.int64):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            V = T.decl_buffer(
                (1,), "float32", data=T.reinterpret(T.handle("float32", "global").ty, n)
            )
            B[0] = V[0]

    return main


def byte_offset_program():
    """A view at a byte offset of a parameter's data (not an address_of)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            V = T.decl_buffer((1,), "float32", data=T.handle_add_byte_offset(A.data, 4))
            B[0] = V[0]

    return main


def shared_view_program():
    """A shared view at an element's address of a shared allocation."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            S = T.alloc_buffer((4,), "float32", scope="shared")
            S[t] = A[t]
            V = T.decl_buffer((1,), "float32", data=T.address_of(S[1]), scope="shared")
            B[t] = V[0]

    return main


def address_view_program():
    """The issue's program: a view of A[0] in a kernel."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A_k = T.decl_buffer((1,), "float32", data=T.address_of(A[0]))
            B[0] = A_k[0]

    return main


DEMOS = {
    "blind8-var-only": Demo(two_views_program, webgpu_result),
    "blind8-any-call": Demo(reinterpret_program, webgpu_result),
    "blind8-address-of-only": Demo(byte_offset_program, webgpu_result),
    "blind8-global-only": Demo(shared_view_program, webgpu_result),
    "blind8-type-error": Demo(address_view_program, webgpu_result),
    "blind8-check-after-visit": Demo(address_view_program, webgpu_result),
}
