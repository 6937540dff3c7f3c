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
"""Blind round 4 demos of the reinterpret-of-a-constant wrong fixes (apache/tvm): kernels run on
pocl's OpenCL CPU device (the bits stored, or the build's refusal of ``&(literal)``), and the
"c" target's host source."""

import numpy as np

import tvm
from harness.blind_demo import Demo, compile_and_run
from tvm.script import tirx as T

# bits of 2.0f and 1.0f
TWO_F, ONE_F = 0x40000000, 0x3F800000


def run(func):
    """``func(A: uint32[2], B: float32[2])`` on OpenCL: both buffers' values, or the error."""
    return compile_and_run(func, [np.zeros(2, "uint32"), np.zeros(2, "float32")], [0, 1])


def host_lines(func):
    """The "c" target's host source lines that take an address in a reinterpret."""
    lib = tvm.compile(func, target="c")
    return [x.strip() for x in lib.mod.inspect_source().splitlines() if " *)(&(" in x]


@T.prim_func
def int_constant(A: T.Buffer((2,), "uint32"), B: T.Buffer((2,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        B[0] = T.reinterpret("float32", T.int32(ONE_F))  # an int32 constant: 1.0f


@T.prim_func
def float_constant(A: T.Buffer((2,), "uint32"), B: T.Buffer((2,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A[0] = T.reinterpret("uint32", T.float32(2.0))  # 0x40000000


@T.prim_func
def in_condition(A: T.Buffer((2,), "uint32"), B: T.Buffer((2,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        if T.reinterpret("int32", T.float32(1.0)) == ONE_F:  # an if's condition
            A[0] = T.uint32(7)


@T.prim_func
def nested(A: T.Buffer((2,), "uint32"), B: T.Buffer((2,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A[0] = T.reinterpret("uint32", T.float32(2.0)) >> T.uint32(1)  # an operand: 0x20000000


@T.prim_func
def on_the_host(A: T.Buffer((2,), "uint32"), B: T.Buffer((2,), "float32")):
    A[0] = T.reinterpret("uint32", T.float32(2.0))  # host code of the "c" target


@T.prim_func
def two_kernels(A: T.Buffer((2,), "uint32"), B: T.Buffer((2,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A[0] = T.reinterpret("uint32", T.float32(2.0))
    for t in T.thread_binding(1, thread="threadIdx.x"):
        B[1] = T.reinterpret("float32", T.int32(ONE_F))  # the second kernel


DEMOS = {
    "blind4-float-only": Demo(lambda: int_constant, run, opencl=True),
    "blind4-temp-target-type": Demo(lambda: float_constant, run, opencl=True),
    "blind4-stores-only": Demo(lambda: in_condition, run, opencl=True),
    "blind4-whole-value-only": Demo(lambda: nested, run, opencl=True),
    "blind4-no-c-host": Demo(lambda: on_the_host, host_lines),
    "blind4-first-function-only": Demo(lambda: two_kernels, run, opencl=True),
}
