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
"""Blind round 9 on apache/tvm-tirx: demos_round9's demos on this line's programs
(kernels opened by ``launch_thread`` regions, a CPU kernel by a ``device_scope`` region)."""

from bugs.narrow_scalar.demos_round9 import demos
from harness.blind_demo import from_script


def _kernel(params, body):
    """A function whose kernel (OpenCL, as the observer's target says) reads ``params``."""
    return lambda: from_script(
        f"""
@T.prim_func
def main(A: T.Buffer((8,), "int32"), {params}):
    with T.launch_thread("threadIdx.x", 8) as tx:
        {body}
"""
    )


def _cpu_kernel():
    return from_script(
        """
@T.prim_func
def main(A: T.Buffer((8,), "int32"), x: T.int8):
    with T.device_scope():
        for i in range(8):
            A[i] = T.Cast("int32", x)
"""
    )


def _module_kernel():
    """A kernel written as a module function, launched twice by the host."""
    return from_script(
        """
@I.ir_module
class Mod:
    @T.prim_func
    def main(A: T.Buffer((8,), "int32"), x: T.int8):
        T.func_attr({"target": T.target("llvm")})
        Mod.kern(A.data, x)
        Mod.kern(A.data, x + T.int8(1))

    @T.prim_func
    def kern(A_ptr: T.Ptr(T.int32), x: T.int8):
        T.func_attr({"target": T.target("opencl")})
        A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((8,), T.int32)])
        with T.launch_thread("threadIdx.x", 8) as tx:
            A[tx] = T.Cast("int32", x)
"""
    )


DEMOS = demos(_kernel, _cpu_kernel, _module_kernel)
