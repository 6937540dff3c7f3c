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
"""Demos of the blind round 4 wrong fixes of uint64_scalar (apache/tvm; each runs a kernel on
pocl's OpenCL device): harness/blind_demo.py."""

from harness.blind_demo import Demo, compile_and_run


def scalar_then_int32(dtype):
    """A kernel A[i] = x + y of a scalar x of ``dtype`` and an int32 y passed after it."""

    def program():
        import tvm
        from tvm.script import tirx as T

        @T.prim_func
        def main(A: T.Buffer((4,), dtype), x: tvm.tirx.Var("x", dtype), y: T.int32):
            for i in T.thread_binding(4, thread="threadIdx.x"):
                A[i] = x + T.Cast(dtype, y)

        return main

    return program


# the arguments of each dtype: x with its top bit set where it has one to spare, y = 7
ARGS = {"uint64": -(2**63) + 2**40 + 3, "uint32": 2**31 + 5, "int64": -(2**40) - 3, "uint8": 200}


def run_with(dtype):
    def observe(func):
        import numpy as np

        from harness.reference_fixes import opencl_runtime

        # the runtime the fix selected, loaded before the compile (not Demo(opencl=True),
        # which would load the plain one before the fix is installed)
        opencl_runtime().load()
        return compile_and_run(func, [np.zeros(4, dtype), ARGS[dtype], 7], [0])

    return observe


def demo(dtype):
    return Demo(scalar_then_int32(dtype), run_with(dtype))


DEMOS = {
    "blind4-int32-slot": demo("uint64"),
    "blind4-float-branch": demo("uint64"),
    "blind4-replaces-uint32": demo("uint32"),
    "blind4-int64-line-moved": demo("int64"),
    "blind4-new-code-tensormap-case": demo("uint64"),
    "blind4-narrow-uints-accepted": demo("uint8"),
}
