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
"""Blind round 8, apache/tvm-tirx: the demos of demos_round8.py, their programs built
on this line (from_script spells them in T.function / T.Tensor), with this line's spelling of
the two that declare a kernel's own view (T.decl_tensor) or a CPU device region
(tirx.device_scope under an llvm target)."""

from bugs.narrow_scalar.demos_round8 import demos
from harness.blind_demo import Demo, from_script, split_module

MODULE_KERNEL = """
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "int8"), x: T.int8):
        T.func_attr({"target": T.target("llvm")})
        Module.kernel(A.data, x)

    @T.prim_func
    def kernel(A_data: T.Ptr(T.int8), x: T.int8):
        T.func_attr({"target": T.target("opencl"), "global_symbol": "kernel"})
        A = T.decl_tensor(A_data, ty_args=[T.Tensor((8,), T.int8)])
        with T.launch_thread("threadIdx.x", 8) as tx:
            A[tx] = x
"""

CPU_REGION = """
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "int8"), x: T.int8):
        T.func_attr({"target": T.target("llvm", host="llvm")})
        with T.region("tirx.device_scope", []):
            for i in range(8):
                A[i] = x
"""

DEMOS = {
    **demos(),
    "blind8-module-kernel-kept": Demo(lambda: from_script(MODULE_KERNEL), split_module),
    "blind8-cpu-kernels-widened": Demo(lambda: from_script(CPU_REGION), split_module),
}
