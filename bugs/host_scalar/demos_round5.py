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
"""Blind round 5 demos of the host-level scalar report on apache/tvm: SplitHostDevice's output
(cuda, llvm host) for host cells used in one way by kernels, and the host's workspace calls of
a cuda function compiled with a host cell or an annotated allocation."""

from harness.blind_demo import Demo, script_or_error, split_or_error, workspace_calls


def cell(use):
    """A "local" one-element cell ``c`` of the host code and kernels writing ``A``; ``use``:
    "vector" (a float32x4 cell the host stores and a kernel reads), "view" (a kernel reads it
    through a view declared on the host), "tensor" (a packed call receives it as a tensor, a
    kernel stores into it), "two_kernels" (the host stores it, the first kernel reads it, the
    second stores into it), "address" (a kernel hands its address to an extern function) or
    "scalar" (the host stores it, a kernel reads it)."""
    from tvm.script import tirx as T

    if use == "vector":

        @T.prim_func
        def vector(A: T.Buffer((8,), "float32x4")):
            c = T.alloc_buffer((1,), "float32x4", scope="local")
            c[0] = T.Broadcast(T.float32(1.5), 4)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

        return vector

    if use == "view":

        @T.prim_func
        def view(A: T.Buffer((8,), "float32")):
            c = T.alloc_buffer((1,), "float32", scope="local")
            V = T.decl_buffer((1,), "float32", data=c.data, scope="local")
            c[0] = T.float32(1.5)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = V[0]

        return view

    if use == "tensor":

        @T.prim_func
        def tensor(A: T.Buffer((8,), "float32")):
            c = T.alloc_buffer((1,), "float32", scope="local")
            with T.launch_thread("threadIdx.x", 1) as i:
                c[0] = T.float32(1.5)
            T.evaluate(T.call_packed("f", c))
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = T.float32(0)

        return tensor

    if use == "two_kernels":

        @T.prim_func
        def two_kernels(A: T.Buffer((8,), "float32")):
            c = T.alloc_buffer((1,), "float32", scope="local")
            c[0] = T.float32(1.5)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]
            with T.launch_thread("threadIdx.x", 1) as j:
                c[0] = A[j]

        return two_kernels

    if use == "address":

        @T.prim_func
        def address(A: T.Buffer((8,), "float32")):
            c = T.alloc_buffer((1,), "float32", scope="local")
            c[0] = T.float32(1.5)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = T.call_extern("float32", "load_at", T.address_of(c[0]))

        return address

    @T.prim_func
    def scalar(A: T.Buffer((8,), "float32")):
        c = T.alloc_buffer((1,), "float32", scope="local")
        c[0] = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = c[0]

    return scalar


def annotated(elements, device_type):
    """The host function of a cuda launch at LowerTVMBuiltin (inside its ``device_type`` 2
    attribute) with a "global" float32 allocation of ``elements`` elements annotated
    ``device_type``, which the host fills and hands to an extern function."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.handle("float32")):
        T.func_attr({"target": T.target("llvm"), "global_symbol": "main"})
        T.attr(0, "device_type", 2)
        T.attr(0, "device_id", 0)
        h = T.alloc_buffer((elements,), "float32", annotations={"device_type": device_type})
        for k in range(elements):
            h[k] = T.float32(1)
        T.evaluate(T.call_extern("int32", "consume", h.data))

    return main


def lowered_builtin(func):
    """Observer: ``func`` after LowerTVMBuiltin alone, or its error."""
    import tvm

    return script_or_error(
        lambda: tvm.tirx.transform.LowerTVMBuiltin()(tvm.IRModule({"main": func}))
    )


def cuda_workspace_calls(func):
    """Observer: the host's workspace calls on the CPU, ``func`` compiled for cuda."""
    return workspace_calls(func, "cuda")


DEMOS = {
    "blind5-vector-cell-by-value": Demo(lambda: cell("vector"), split_or_error("cuda")),
    "blind5-views-untraced": Demo(lambda: cell("view"), split_or_error("cuda")),
    "blind5-tensor-is-host-use": Demo(lambda: cell("tensor"), split_or_error("cuda")),
    "blind5-first-kernel-only": Demo(lambda: cell("two_kernels"), split_or_error("cuda")),
    "blind5-stack-limit-inclusive": Demo(lambda: annotated(256, 1), lowered_builtin),
    "blind5-any-device-type": Demo(lambda: annotated(2, 2), lowered_builtin),
    "blind5-free-keeps-device": Demo(lambda: cell("scalar"), cuda_workspace_calls),
    "blind5-kernel-address-by-value": Demo(lambda: cell("address"), split_or_error("cuda")),
}
