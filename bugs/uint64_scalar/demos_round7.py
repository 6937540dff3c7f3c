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
"""Blind round 7 demos of the uint64 kernel scalar fix: launches on pocl."""

from harness.blind_demo import Demo, compile_and_run


def kernel(dtype):
    """A[i] = x + y: a uint64 scalar x (above 2**32) and a uint32 scalar y after it."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), dtype), x: T.uint64, y: T.uint32):
        for i in T.thread_binding(4, thread="threadIdx.x"):
            A[i] = T.Cast(dtype, x) + T.Cast(dtype, y)

    return main


def launch(x, y):
    import numpy as np

    def observe(func):
        from harness.reference_fixes import opencl_runtime

        opencl_runtime().load()  # after the fix selected its runtime, before the compile
        return compile_and_run(func, [np.zeros(4, "uint64"), x, y], [0])

    return observe


TOP = 2**62 + 2**40 + 5

DEMOS = {
    "blind7-u64-uint32-code": Demo(lambda: kernel("uint64"), launch(TOP, 7)),
    "blind7-u64-int32-code": Demo(lambda: kernel("uint64"), launch(2**40 + 3, 1)),
    "blind7-u64-float32-code": Demo(lambda: kernel("uint64"), launch(2**33 + 1, 2)),
    "blind7-u64-tensormap-code": Demo(lambda: kernel("uint64"), launch(9, 2**31 + 1)),
    "blind7-u64-replaces-uint32": Demo(lambda: kernel("uint64"), launch(3, 4)),
    "blind7-u64-bits-typo": Demo(lambda: kernel("uint64"), launch(5, 6)),
}
