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
"""Blind round 8: programs on which each wrong fix of round 8 and the reference fix of
the narrow kernel scalar report differ; the result compared is the module after
SplitHostDevice (the kernel's parameters, its entry bindings, the host's launch)."""

from harness.blind_demo import Demo, from_script, split_module, split_or_error

KERNEL = """
@T.prim_func
def main(A: T.Buffer((8,), "{dtype}"), x: T.{dtype}):
    tx = T.launch_thread("threadIdx.x", 8)
    A[tx] = x
"""

TWO = """
@T.prim_func
def main(A: T.Buffer((8,), "int8"), x: T.int8, y: T.int16):
    tx = T.launch_thread("threadIdx.x", 8)
    A[tx] = x + T.Cast("int8", y)
"""

MODULE_KERNEL = """
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "int8"), x: T.int8):
        T.func_attr({"target": T.target("llvm")})
        Module.kernel(A.data, x)

    @T.prim_func
    def kernel(A_data: T.handle("int8"), x: T.int8):
        T.func_attr({"target": T.target("opencl"), "global_symbol": "kernel"})
        A = T.decl_buffer((8,), "int8", data=A_data)
        tx = T.launch_thread("threadIdx.x", 8)
        A[tx] = x
"""

CPU_REGION = """
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "int8"), x: T.int8):
        T.func_attr({"target": T.target("opencl", host="llvm")})
        T.attr(T.target("llvm"), "target", 0)
        for i in range(8):
            A[i] = x
"""


def kernel(dtype):
    return lambda: from_script(KERNEL.format(dtype=dtype))


def two_narrow():
    return from_script(TWO)


def module_kernel():
    return from_script(MODULE_KERNEL)


def cpu_region():
    return from_script(CPU_REGION)


def demos():
    split = split_or_error("opencl")
    return {
        "blind8-below-16-bits-only": Demo(kernel("int16"), split),
        "blind8-bool-as-uint32": Demo(kernel("bool"), split),
        "blind8-bfloat16-kept": Demo(kernel("bfloat16"), split),
        "blind8-unsigned-as-int32": Demo(kernel("uint16"), split),
        "blind8-launch-not-cast": Demo(kernel("uint8"), split),
        "blind8-module-kernel-kept": Demo(module_kernel, split_module),
        "blind8-first-narrow-only": Demo(two_narrow, split),
        "blind8-cpu-kernels-widened": Demo(cpu_region, split_module),
        "blind8-entry-after-decls": Demo(kernel("int8"), split),
    }


DEMOS = demos()
