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
"""Demos of the blind round 4 wrong fixes of host_scalar (apache/tvm): harness/blind_demo.py."""

from harness.blind_demo import (
    Demo,
    compile_and_run,
    line_package,
    script_or_error,
    split_module,
    split_or_error,
    targeted,
)


def vector_cell():
    """A one-element float32x4 host cell that the host sets and a kernel reads."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(C: T.Buffer((8,), "float32x4")):
        c = T.alloc_buffer((1,), "float32x4", scope="local")
        c[0] = T.Broadcast(T.float32(1.5), 4)
        with T.launch_thread("threadIdx.x", 8) as tx:
            C[tx] = c[0]

    return main


def two_launches():
    """c = 1.5 on the host; kernel 1 adds c; the host sets c = c + 1; kernel 2 adds c."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        c: T.float32 = T.float32(1.5)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = B[i] + c
        c = c + T.float32(1)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = C[i] + c

    return main


def run_two_launches(func):
    import numpy as np

    return compile_and_run(func, [np.zeros(8, "float32"), np.zeros(8, "float32")], [1])


def kernel_buffer_as_tensor():
    """A local buffer of the host code that a kernel fills and a packed call gets as a tensor."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        c = T.alloc_buffer((4,), "float32", scope="local")
        with T.launch_thread("threadIdx.x", 4) as tx:
            c[tx] = A[tx]
        T.evaluate(T.call_packed("consume", c))

    return main


def launch_with_host_element():
    """The host sets v[1] of a host array and launches a module-function kernel with v[1]."""
    from tvm.script import ir as I
    from tvm.script import tirx as T

    @I.ir_module
    class Mod:
        @T.prim_func
        def main(A: T.Buffer((4,), "float32")):
            v = T.alloc_buffer((4,), "float32", scope="local")
            v[1] = T.float32(2.5)
            Mod.kern(A.data, v[1])

        @T.prim_func(private=True)
        def kern(A: T.handle("float32"), x: T.float32):
            A_buf = T.decl_buffer((4,), "float32", data=A)
            with T.launch_thread("threadIdx.x", 4) as tx:
                A_buf[tx] = x

    return targeted(Mod, {"kind": "opencl", "host": "llvm"}, "opencl")


def annotated_gpu_buffer():
    """A host buffer a user annotated device_type = kDLCUDA (2), which only kDLCPU may be."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        t = T.alloc_buffer((4,), "float32", annotations={"device_type": 2})
        for i in range(4):
            t[i] = A[i]
        for i in range(4):
            A[i] = t[i] + T.float32(1)

    return main


def lowered_builtins(func):
    """LowerTVMBuiltin alone on ``func`` (target llvm; tvm.compile's earlier passes drop a
    user's allocation annotations): its TVMScript, or the error."""
    tvm = line_package()
    mod = tvm.IRModule({"main": func.with_attr("target", tvm.target.Target("llvm"))})
    return script_or_error(lambda: tvm.tirx.transform.LowerTVMBuiltin()(mod))


def view_of_view():
    """The host sets c; a kernel stores through a view of a view of c."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        c = T.alloc_buffer((1,), "float32", scope="local")
        c[0] = T.float32(1.5)
        v1 = T.decl_buffer((1,), "float32", data=c.data, scope="local")
        v2 = T.decl_buffer((1,), "float32", data=v1.data, scope="local")
        with T.launch_thread("threadIdx.x", 4) as tx:
            v2[0] = A[tx]

    return main


def host_cell():
    """The report's program, lowered: c = 1.5 on the host, C[tx] = B[tx] + c in a kernel."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        c = T.alloc_buffer((1,), "float32", scope="local")
        c[0] = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 8) as tx:
            C[tx] = B[tx] + c[0]

    return main


DEMOS = {
    "blind4-vector-cell-by-value": Demo(vector_cell, split_or_error()),
    "blind4-launch-value-initial": Demo(two_launches, run_two_launches, opencl=True),
    "blind4-tensor-is-host-use": Demo(kernel_buffer_as_tensor, split_or_error()),
    "blind4-launch-arg-load-is-kernel": Demo(launch_with_host_element, split_module),
    "blind4-any-device-type-annotation": Demo(annotated_gpu_buffer, lowered_builtins),
    "blind4-views-one-level": Demo(view_of_view, split_or_error()),
    "blind4-runtime-targets-cuda-opencl-rocm": Demo(host_cell, split_or_error("metal")),
}
