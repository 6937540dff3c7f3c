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
"""Blind round 6 demos of the host-scalar wrong fixes (apache/tvm-tirx): the programs of
demos_round6.py written with T.function / T.Tensor / alloc_tensor / launch_thread."""

from harness.blind_demo import Demo, split_or_error


def cpu_workspace_calls(func):
    """The host LLVM IR's workspace calls on kDLCPU (device type 1, any device id) of ``func``
    compiled for opencl."""
    import tvm_tirx

    target = tvm_tirx.target.Target("opencl", host="llvm")
    lines = tvm_tirx.tirx.compile(func, target=target).mod.inspect_source("ll").splitlines()
    return [x.split(", !dbg")[0].strip() for x in lines if "(i32 1, i32 " in x and "call" in x]


def prog(name):
    """A program builder: the function ``name`` of ``_programs``."""
    return lambda: _programs()[name]


def _programs():
    from tvm_tirx.script import tirx as T

    @T.function
    def array_first_element(A: T.Tensor((8,), "float32")):
        x = T.alloc_tensor(ty_args=[T.Tensor((4,), T.float32, scope="local")])
        x[0] = T.float32(1.5)  # the host writes a four-element local array
        x[1] = T.float32(2.5)
        with T.launch_thread("threadIdx.x", 8) as tx:
            A[tx] = x[0]  # a kernel loads its first element

    @T.function
    def second_kernel_stores(A: T.Tensor((8,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        c[0] = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 8) as tx:
            A[tx] = c[0]  # the first kernel only reads the cell
        with T.launch_thread("threadIdx.x", 1) as ty:  # noqa: F841
            c[0] = T.float32(3)  # the second kernel writes it

    @T.function
    def view_declared_on_host(A: T.Tensor((8,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        V = T.decl_tensor(c.data, ty_args=[T.Tensor((1,), T.float32, scope="local")])
        with T.launch_thread("threadIdx.x", 1) as tx:  # noqa: F841
            V[0] = T.float32(2)
        with T.launch_thread("threadIdx.x", 8) as ty:
            A[ty] = V[0]

    @T.function
    def cell_as_tensor(A: T.Tensor((8,), "float32")):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        c[0] = T.float32(1.5)
        T.evaluate(T.call_packed("ext_fill", c))  # a packed call receives the cell as a tensor
        with T.launch_thread("threadIdx.x", 8) as tx:
            A[tx] = T.float32(0)

    @T.function
    def large_host_array(A: T.Tensor((8,), "float32"), B: T.Tensor((512,), "float32")):
        x = T.alloc_tensor(ty_args=[T.Tensor((512,), T.float32, scope="local")])
        for i in range(512):
            x[i] = B[i] * T.float32(2)
        for i in range(512):
            B[i] = x[511 - i]
        with T.launch_thread("threadIdx.x", 8) as tx:
            A[tx] = T.float32(1)

    @T.function
    def global_host_buffer(A: T.Tensor((8,), "float32")):
        g = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="global")])
        g[0] = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 8) as tx:
            A[tx] = g[0]

    return {
        "array_first_element": array_first_element,
        "second_kernel_stores": second_kernel_stores,
        "view_declared_on_host": view_declared_on_host,
        "cell_as_tensor": cell_as_tensor,
        "large_host_array": large_host_array,
        "global_host_buffer": global_host_buffer,
    }


DEMOS = {
    "blind6-count-unchecked": Demo(prog("array_first_element"), split_or_error()),
    "blind6-first-kernel-only": Demo(prog("second_kernel_stores"), split_or_error()),
    "blind6-view-decl-host-use": Demo(prog("view_declared_on_host"), split_or_error()),
    "blind6-tensor-ignored": Demo(prog("cell_as_tensor"), split_or_error()),
    "blind6-device-id-kept": Demo(prog("large_host_array"), cpu_workspace_calls),
    "blind6-global-candidate": Demo(prog("global_host_buffer"), split_or_error()),
}
