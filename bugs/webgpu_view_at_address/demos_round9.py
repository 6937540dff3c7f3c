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
"""Blind round 9: programs on which patch 0015's wrong fixes differ from its
reference fix (apache/tvm): a kernel's views, compiled for webgpu."""

from harness.blind_demo import Demo, from_script

VIEW_AT_ZERO = """
@T.prim_func
def main(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A_k = T.decl_buffer((1,), "float32", data=T.address_of(A[0]))
        B[0] = A_k[0]
"""

VIEW_OF_DATA = """
@T.prim_func
def main(A: T.Buffer((2,), "float32"), B: T.Buffer((2,), "float32")):
    for t in T.thread_binding(2, thread="threadIdx.x"):
        A_k = T.decl_buffer((2,), "float32", data=A.data)
        B[t] = A_k[t]
"""

SHARED_VIEW = """
@T.prim_func
def main(A: T.Buffer((2,), "float32"), B: T.Buffer((2,), "float32")):
    for t in T.thread_binding(2, thread="threadIdx.x"):
        S = T.alloc_buffer((2,), "float32", scope="shared")
        S[t] = A[t]
        S_k = T.decl_buffer((1,), "float32", data=T.address_of(S[1]), scope="shared")
        B[t] = S_k[0]
"""

VIEW_AT_OFFSET = """
@T.prim_func
def main(A: T.Buffer((2,), "float32"), B: T.Buffer((2,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        V = T.decl_buffer((1,), "float32", data=T.handle_add_byte_offset(A.data, 4))
        B[0] = V[0]
"""

VIEW_AT_ONE = """
@T.prim_func
def main(A: T.Buffer((2,), "float32"), B: T.Buffer((2,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A_k = T.decl_buffer((1,), "float32", data=T.address_of(A[1]))
        B[0] = A_k[0]
"""


def program(text):
    return lambda: from_script(text)


def compile_webgpu(func):
    """Compile for webgpu: "compiles", or the error (the demo's child prints it)."""
    from harness.blind_demo import line_package

    pkg = line_package()
    compile_ = getattr(pkg, "compile", None) or pkg.tirx.compile
    compile_(func, target="webgpu")
    return "compiles"


def demos(view_at_zero, view_of_data, shared_view, view_at_offset, view_at_one):
    """The demos, from this line's program builders."""
    return {
        "blind9-buffer-data-refused": Demo(view_of_data, compile_webgpu),
        "blind9-index-zero-names-storage": Demo(view_at_zero, compile_webgpu),
        "blind9-global-scope-only": Demo(shared_view, compile_webgpu),
        "blind9-icheck": Demo(view_at_one, compile_webgpu),
        "blind9-message-arguments-swapped": Demo(view_at_one, compile_webgpu),
        "blind9-address-of-only": Demo(view_at_offset, compile_webgpu),
    }


DEMOS = demos(
    program(VIEW_AT_ZERO),
    program(VIEW_OF_DATA),
    program(SHARED_VIEW),
    program(VIEW_AT_OFFSET),
    program(VIEW_AT_ONE),
)
