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
"""Blind round 9: a launch on the OpenCL device (pocl) on which the uint64 kernel scalar
fix's runtime and each of its round-9 wrong runtimes differ: a kernel that stores a uint64 scalar
with its top bit set (and low word's top bit set) and the int32 scalar passed after it."""

from harness.blind_demo import Demo, compile_and_run, from_script

# the top bit of each 32-bit half set: truncation, sign and zero extension all show
X = 0x8000_0001_8000_0002
Y = 7


def program():
    return from_script(
        """
@T.prim_func
def main(A: T.Buffer((4,), "uint64"), B: T.Buffer((4,), "int32"), x: T.uint64, y: T.int32):
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = x
        B[i] = y
"""
    )


def launched(func):
    """Observer: the values the kernel stores (A's, B's), an error or a signal."""
    import numpy as np

    from harness.reference_fixes import opencl_runtime

    opencl_runtime().load()  # the runtime the fix selected (the OpenCL codegen needs one)
    a, b = np.zeros(4, "uint64"), np.zeros(4, "int32")
    # the FFI holds an integer as int64: X goes as the int64 of the same bits
    return compile_and_run(func, [a, b, X - 2**64, Y], [0, 1])


# opencl=False: the fix (a runtime) is selected first; the observer loads it before compiling
_LAUNCH = Demo(program, launched)

DEMOS = {
    "blind9-u64-int32-code": _LAUNCH,
    "blind9-u64-float32-code": _LAUNCH,
    "blind9-u64-in-int-branch": _LAUNCH,
    "blind9-u64-bits-32-typo": _LAUNCH,
    "blind9-u64-zero-extend-low": _LAUNCH,
    "blind9-u64-sign-extend-low": _LAUNCH,
    "blind9-u64-next-slot": _LAUNCH,
    "blind9-u64-read-as-float64": _LAUNCH,
}
