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
"""Blind round 6 demos of the reinterpret-of-a-constant wrong fixes (apache/tvm)."""

import numpy as np

import tvm
from harness.blind_demo import Demo, compile_and_run
from tvm.script import tirx as T


def bits(func):
    """The uint32 bits func's kernel writes to A[0] on pocl."""
    return compile_and_run(func, [np.zeros(1, "uint32")], [0])


def bytes4(func):
    return compile_and_run(func, [np.zeros(4, "uint8")], [0])


def c_source(func):
    """The "c" target's host code of ``func``, or the C compiler's error."""
    lib = tvm.compile(func, target="c")
    return [x.strip() for x in lib.mod.inspect_source().splitlines() if "A[0] =" in x or " v" in x]


def float_bits():
    @T.prim_func
    def main(A: T.Buffer((1,), "uint32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.reinterpret("uint32", T.float32(2.0))

    return main


def int_to_float():
    @T.prim_func
    def main(A: T.Buffer((1,), "uint32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast("uint32", T.reinterpret("float32", T.int32(1065353216)) * T.float32(3.0))

    return main


def to_vector():
    @T.prim_func
    def main(A: T.Buffer((4,), "uint8")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[T.Ramp(0, 1, 4)] = T.reinterpret("uint8x4", T.int32(0x04030201))

    return main


def in_condition():
    @T.prim_func
    def main(A: T.Buffer((1,), "uint32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            if T.reinterpret("uint32", T.float32(1.0)) == T.uint32(1065353216):
                A[0] = T.uint32(7)

    return main


def two_kernels():
    @T.prim_func
    def main(A: T.Buffer((1,), "uint32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.reinterpret("uint32", T.float32(2.0))
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = A[0] + T.reinterpret("uint32", T.float32(1.0))

    return main


def host_c():
    @T.prim_func
    def main(A: T.Buffer((1,), "uint32")):
        A[0] = T.reinterpret("uint32", T.float32(2.0))

    return main


DEMOS = {
    "blind6-temp-of-target-type": Demo(float_bits, bits, opencl=True),
    "blind6-float-constants-only": Demo(int_to_float, bits, opencl=True),
    "blind6-scalar-targets-only": Demo(to_vector, bytes4, opencl=True),
    "blind6-stores-only": Demo(in_condition, bits, opencl=True),
    "blind6-temp-with-target-lanes": Demo(to_vector, bytes4, opencl=True),
    "blind6-first-function-only": Demo(two_kernels, bits, opencl=True),
    "blind6-no-c-host": Demo(host_c, c_source),
}
