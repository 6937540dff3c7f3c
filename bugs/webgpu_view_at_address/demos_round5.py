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
"""Blind round 5 demos of WebGPU's refusal of a kernel's view at an address (apache/tvm): each
compiles a small kernel for webgpu and prints "compiles" or the error's kind and line."""

from harness.blind_demo import Demo, message


def compiled(func):
    """Observer: tvm.compile for webgpu: "compiles", or the error's kind and line."""
    import tvm

    try:
        tvm.compile(func, target="webgpu")
        return "compiles"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


def view_under_if():
    """A view at the thread's element of A, declared and read under an if."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32"), n: T.int32):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            if n > t:
                V = T.decl_buffer((1,), "float32", data=T.address_of(A[t]))
                B[t] = V[0]

    return main


def view_in_second_kernel():
    """Two kernels: the first copies A to B, the second reads A through a view at A[t]."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            B[t] = A[t]
        for t in T.thread_binding(4, thread="threadIdx.x"):
            V = T.decl_buffer((1,), "float32", data=T.address_of(A[t]))
            B[t] = V[0]

    return main


def scoped_view(scope):
    """A kernel's ``scope`` allocation S and a ``scope`` view at S[t], read into B."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            S = T.alloc_buffer((4,), "float32", scope=scope)
            S[t] = A[t]
            V = T.decl_buffer((1,), "float32", data=T.address_of(S[t]), scope=scope)
            B[t] = V[0]

    return main


def view_at_element_zero():
    """One thread reads A[0] through a view at A[0] (the report's program)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            V = T.decl_buffer((1,), "float32", data=T.address_of(A[0]))
            B[0] = V[0]

    return main


def int64_param_and_view():
    """An int64 buffer parameter (which WGSL cannot hold) and a view at B[t] written."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "int64"), B: T.Buffer((4,), "float32")):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            V = T.decl_buffer((1,), "float32", data=T.address_of(B[t]))
            V[0] = T.Cast("float32", A[t])

    return main


def unused_view():
    """A view at A[t] declared and never accessed; B[t] = A[t]."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            V = T.decl_buffer((1,), "float32", data=T.address_of(A[t]))  # noqa: F841
            B[t] = A[t]

    return main


DEMOS = {
    "blind5-skips-if-branches": Demo(view_under_if, compiled),
    "blind5-first-kernel-only": Demo(view_in_second_kernel, compiled),
    "blind5-typeerror-only": Demo(lambda: scoped_view("shared"), compiled),
    "blind5-shared-scope-only": Demo(lambda: scoped_view("local"), compiled),
    "blind5-element-zero-is-array": Demo(view_at_element_zero, compiled),
    "blind5-any-error-converted": Demo(int64_param_and_view, compiled),
    "blind5-accessed-views-only": Demo(unused_view, compiled),
}
