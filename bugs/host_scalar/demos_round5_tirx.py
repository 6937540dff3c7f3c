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
"""Blind round 5 demos of the host-level scalar report on apache/tvm-tirx: the programs of
demos_round5.py in tvm-tirx's script."""

from harness.blind_demo import Demo, script_or_error, split_or_error


def cell(use):
    """A "local" one-element cell ``c`` of the host code and kernels writing ``A``; ``use`` as
    in demos_round5.cell."""
    from tvm_tirx.script import tirx as T

    def local(dtype="float32"):
        return T.Tensor((1,), dtype, scope="local")

    if use == "vector":

        @T.function
        def vector(A: T.Tensor((8,), "float32x4")):
            c = T.alloc_tensor(ty_args=[local("float32x4")])
            c[0] = T.Broadcast(T.float32(1.5), 4)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]

        return vector

    if use == "view":

        @T.function
        def view(A: T.Tensor((8,), "float32")):
            c = T.alloc_tensor(ty_args=[local()])
            V = T.decl_tensor(c.data, ty_args=[local()])
            c[0] = T.float32(1.5)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = V[0]

        return view

    if use == "tensor":

        @T.function
        def tensor(A: T.Tensor((8,), "float32")):
            c = T.alloc_tensor(ty_args=[local()])
            with T.launch_thread("threadIdx.x", 1) as i:
                c[0] = T.float32(1.5)
            T.evaluate(T.call_packed("f", c))
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = T.float32(0)

        return tensor

    if use == "two_kernels":

        @T.function
        def two_kernels(A: T.Tensor((8,), "float32")):
            c = T.alloc_tensor(ty_args=[local()])
            c[0] = T.float32(1.5)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = c[0]
            with T.launch_thread("threadIdx.x", 1) as j:
                c[0] = A[j]

        return two_kernels

    if use == "address":

        @T.function
        def address(A: T.Tensor((8,), "float32")):
            c = T.alloc_tensor(ty_args=[local()])
            c[0] = T.float32(1.5)
            with T.launch_thread("threadIdx.x", 8) as i:
                A[i] = T.call_extern("load_at", T.address_of(c[0]), ty=T.float32)

        return address

    @T.function
    def scalar(A: T.Tensor((8,), "float32")):
        c = T.alloc_tensor(ty_args=[local()])
        c[0] = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = c[0]

    return scalar


def annotated(elements, device_type):
    """The host function of a cuda launch at LowerTVMBuiltin (inside its device context
    (2, 0)) with a "global" float32 allocation of ``elements`` elements annotated
    ``device_type``, which the host fills and hands to an extern function."""
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    host = tvm_tirx.target.Target("llvm")

    @T.function
    def main(A: T.Ptr(T.float32)):
        T.func_attr({"target": host, "global_symbol": "main"})
        with T.device_context(2, 0):
            h = T.alloc_tensor(
                ty_args=[T.Tensor((elements,), "float32")], attrs={"device_type": device_type}
            )
            for k in range(elements):
                h[k] = T.float32(1)
            T.evaluate(T.call_extern("consume", h.data, ty=T.int32))

    return main


def lowered_builtin(func):
    """Observer: ``func`` after LowerTVMBuiltin alone, or its error."""
    import tvm_tirx

    return script_or_error(
        lambda: tvm_tirx.tirx.transform.LowerTVMBuiltin()(tvm_tirx.IRModule({"main": func}))
    )


def cuda_workspace_calls(func):
    """Observer: the host LLVM IR's workspace calls on the CPU (``(i32 1, i32 0, ...``) of
    ``func`` compiled for cuda (llvm host)."""
    import tvm_tirx

    target = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"}, host="llvm")
    lib = tvm_tirx.tirx.compile(func, target=target)
    lines = lib.mod.inspect_source("ll").splitlines()
    return [x.split(", !dbg")[0].strip() for x in lines if "(i32 1, i32 0" in x]


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
