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
"""Blind round 8: programs on which each wrong fix of round 8 (an OpenCL runtime built
with a wrong hunk of pack_args.h) and the reference fix of the uint64 kernel scalar report
differ; the result compared is a launch on the OpenCL CPU device (pocl): the values the kernel
wrote, the runtime's error, or the signal that ended the launch. The runtime is loaded by the
observer, after the fix under test has selected its build."""

import numpy as np

from harness.blind_demo import Demo, compile_and_run, from_script
from harness.reference_fixes import opencl_runtime

# a uint64 scalar above 2**32, and a uint32 one passed after it
U64_THEN_U32 = """
@T.prim_func
def main(A: T.Buffer((4,), "uint64"), x: T.uint64, y: T.uint32):
    with T.launch_thread("threadIdx.x", 4) as t:
        A[t] = x + T.Cast("uint64", y) + T.Cast("uint64", t)
"""

NARROW = """
@T.prim_func
def main(A: T.Buffer((4,), "{dtype}"), x: T.{dtype}):
    with T.launch_thread("threadIdx.x", 4) as t:
        A[t] = x
"""

X, Y = 2**40 + 3, 7


def launch(inputs):
    """Observer: the function compiled for OpenCL (llvm host) and run on ``inputs``; the
    runtime the fix selected is loaded first (the OpenCL module is made by it)."""

    def observe(func):
        reason = opencl_runtime().load()
        if reason:
            return f"no runtime: {reason}"
        return compile_and_run(func, inputs(), [0])

    return observe


def u64_inputs():
    return [np.zeros(4, "uint64"), X, Y]


def narrow_inputs(dtype, value):
    return lambda: [np.zeros(4, dtype), value]


def u64():
    return from_script(U64_THEN_U32)


def narrow(dtype):
    return lambda: from_script(NARROW.format(dtype=dtype))


DEMOS = {
    "blind8-u64-copied-uint32-line": Demo(u64, launch(u64_inputs)),
    "blind8-u64-tensormap-code": Demo(u64, launch(u64_inputs)),
    "blind8-u64-unsigned-fallback": Demo(narrow("uint16"), launch(narrow_inputs("uint16", 40000))),
    "blind8-u64-any-type-fallback": Demo(narrow("int8"), launch(narrow_inputs("int8", -100))),
    "blind8-u64-nonbuffer-packer-only": Demo(u64, launch(u64_inputs)),
    "blind8-u64-aligned-packer-only": Demo(u64, launch(u64_inputs)),
}
