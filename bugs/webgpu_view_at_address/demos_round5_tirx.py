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
"""Blind round 5 demos of WebGPU's refusal of a kernel's view at an address (apache/tvm-tirx):
the programs of demos_round5.py that tvm-tirx can tell apart, compiled for webgpu ("compiles"
or the error's kind and first line). The scope and error-kind wrong fixes have no demo here
(wrong_fixes_round5.NOT_ON_TVM_TIRX)."""

from harness.blind_demo import Demo, message


def compiled(func):
    """Observer: tvm_tirx.tirx.compile for webgpu: "compiles", or the error's kind and line."""
    import tvm_tirx

    try:
        tvm_tirx.tirx.compile(func, target="webgpu")
        return "compiles"
    except Exception as err:  # the result: an error
        return f"{type(err).__name__}: {message(err)}"


def view_under_if():
    """A view at the thread's element of A, declared and read under an if."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32"), n: T.int32):
        with T.launch_thread("threadIdx.x", 4) as t:
            if n > t:
                V = T.decl_tensor(T.address_of(A[t]), ty_args=[T.Tensor((1,), "float32")])
                B[t] = V[0]

    return main


def view_in_second_kernel():
    """Two kernels: the first copies A to B, the second reads A through a view at A[t]."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
        with T.launch_thread("threadIdx.x", 4) as t:
            B[t] = A[t]
        with T.launch_thread("threadIdx.x", 4) as t:
            V = T.decl_tensor(T.address_of(A[t]), ty_args=[T.Tensor((1,), "float32")])
            B[t] = V[0]

    return main


def view_at_element_zero():
    """One thread reads A[0] through a view at A[0] (the report's program)."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((1,), "float32"), B: T.Tensor((1,), "float32")):
        with T.launch_thread("threadIdx.x", 1):
            V = T.decl_tensor(T.address_of(A[0]), ty_args=[T.Tensor((1,), "float32")])
            B[0] = V[0]

    return main


def unused_view():
    """A view at A[t] declared and never accessed; B[t] = A[t]."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
        with T.launch_thread("threadIdx.x", 4) as t:
            V = T.decl_tensor(T.address_of(A[t]), ty_args=[T.Tensor((1,), "float32")])  # noqa: F841
            B[t] = A[t]

    return main


DEMOS = {
    "blind5-skips-if-branches": Demo(view_under_if, compiled),
    "blind5-first-kernel-only": Demo(view_in_second_kernel, compiled),
    "blind5-element-zero-is-array": Demo(view_at_element_zero, compiled),
    "blind5-accessed-views-only": Demo(unused_view, compiled),
}
