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
"""Demos of the blind round 4 wrong fixes of host_scalar on apache/tvm-tirx (the programs of
demos_round4.py in that package's spelling; no OpenCL runtime there, so the two-launch demo
compares SplitHostDevice's launch arguments): harness/blind_demo.py."""

from bugs.host_scalar.demos_round4 import lowered_builtins
from harness.blind_demo import Demo, split_module, split_or_error, targeted


def vector_cell():
    """A one-element float32x4 host cell that the host sets and a kernel reads."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(C: T.Tensor((8,), "float32x4")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32x4", scope="local")])
        c[0] = T.Broadcast(T.float32(1.5), 4)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = c[0]

    return main


def two_launches():
    """c = 1.5 on the host; kernel 1 adds c; the host sets c = c + 1; kernel 2 adds c."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
        c[0] = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i] + c[0]
        c[0] = c[0] + T.float32(1)
        with T.launch_thread("threadIdx.x", 8) as j:
            C[j] = C[j] + c[0]

    return main


def kernel_buffer_as_tensor():
    """A local tensor of the host code that a kernel fills and a packed call gets as a tensor."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((4,), "float32", scope="local")])
        with T.launch_thread("threadIdx.x", 4) as i:
            c[i] = A[i]
        T.evaluate(T.call_packed("consume", c))

    return main


def launch_with_host_element():
    """The host sets v[1] of a host array and launches a module-function kernel with v[1]."""
    from tvm_tirx.script import ir as I
    from tvm_tirx.script import tirx as T

    @I.ir_module
    class Mod:
        @T.function
        def main(A: T.Tensor((4,), "float32")):
            v = T.alloc_tensor(ty_args=[T.Tensor((4,), "float32", scope="local")])
            v[1] = T.float32(2.5)
            Mod.kern(A.data, v[1])

        @T.function(private=True)
        def kern(A: T.Ptr(T.float32), x: T.float32):
            A_t = T.decl_tensor(A, ty_args=[T.Tensor((4,), T.float32)])
            with T.launch_thread("threadIdx.x", 4) as i:
                A_t[i] = x

    return targeted(Mod, {"kind": "opencl", "host": "llvm"}, "opencl")


def annotated_gpu_buffer():
    """A host tensor a user annotated device_type = kDLCUDA (2), which only kDLCPU may be."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32")):
        t = T.alloc_tensor(
            ty_args=[T.Tensor((4,), T.float32, scope="local")], annotations={"device_type": 2}
        )
        for k in range(4):
            t[k] = A[k]
        for k in range(4):
            A[k] = t[k] + T.float32(1)

    return main


def view_of_view():
    """The host sets c; a kernel stores through a view of a view of c."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((4,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
        c[0] = T.float32(1.5)
        v1 = T.decl_tensor(c.data, ty_args=[T.Tensor((1,), "float32", scope="local")])
        v2 = T.decl_tensor(v1.data, ty_args=[T.Tensor((1,), "float32", scope="local")])
        with T.launch_thread("threadIdx.x", 4) as i:
            v2[0] = A[i]

    return main


def host_cell():
    """The report's program: c = 1.5 on the host, C[i] = B[i] + c in a kernel."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32", scope="local")])
        c[0] = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i] + c[0]

    return main


DEMOS = {
    "blind4-vector-cell-by-value": Demo(vector_cell, split_or_error()),
    "blind4-launch-value-initial": Demo(two_launches, split_or_error()),
    "blind4-tensor-is-host-use": Demo(kernel_buffer_as_tensor, split_or_error()),
    "blind4-launch-arg-load-is-kernel": Demo(launch_with_host_element, split_module),
    "blind4-any-device-type-annotation": Demo(annotated_gpu_buffer, lowered_builtins),
    "blind4-views-one-level": Demo(view_of_view, split_or_error()),
    "blind4-runtime-targets-cuda-opencl-rocm": Demo(host_cell, split_or_error("metal")),
}
