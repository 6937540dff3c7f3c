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
"""Blind round 10: demos of codegen_missing_dtype's wrong fixes on apache/tvm (the table,
``demos``, serves demos_round10_tirx.py too, on that line's programs).

Each program is a kernel that a type the target lacks stops in the code generator (a buffer of
that type, a float64 constant printed before any float64 type, a float64 scalar the host
passes to the kernel); each is compiled for WebGPU or Metal by demos_round8.build_for, which
reports "compiles" or the error's class and first line.
"""

from bugs.codegen_missing_dtype.demos_round8 import build_for as compiled
from harness.blind_demo import Demo


def copy_kernel(dtype):
    """A kernel copying one element of a ``dtype`` buffer into another."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), dtype), B: T.Buffer((8,), dtype)):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = B[1]

    return main


def float64_constant_first():
    """A float64 constant left of a float64 cast: the FloatImm printer meets it first."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast("float32", T.float64(2.5) + T.Cast("float64", B[1]))

    return main


def float64_scalar_argument():
    """A float64 host scalar read in the kernel: it becomes a float64 kernel argument."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), x: T.float64):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast("float32", x)

    return main


def demos(copy_kernel, float64_constant_first, float64_scalar_argument):
    """The demos on one line's program builders (as above); each compiles its program for
    WebGPU or Metal (demos_round8.build_for: "compiles" or the error's first line)."""
    return {
        "blind10-uint64-icheck-kept": Demo(lambda: copy_kernel("uint64"), compiled("webgpu")),
        "blind10-else-throw-kept": Demo(lambda: copy_kernel("float4_e2m1fn"), compiled("webgpu")),
        "blind10-floatimm-throw-kept": Demo(float64_constant_first, compiled("webgpu")),
        "blind10-podarg-script-type": Demo(float64_scalar_argument, compiled("webgpu")),
        "blind10-metal-float-switch-only": Demo(
            lambda: copy_kernel("float32x8"), compiled("metal")
        ),
        "blind10-lanes-checked-last": Demo(lambda: copy_kernel("int64x8"), compiled("webgpu")),
        "blind10-vector-named-by-element": Demo(lambda: copy_kernel("int64x2"), compiled("webgpu")),
        "blind10-metal-type-error": Demo(lambda: copy_kernel("float64"), compiled("metal")),
    }


DEMOS = demos(copy_kernel, float64_constant_first, float64_scalar_argument)
