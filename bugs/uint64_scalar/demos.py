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
"""Programs on which the uint64 kernel scalar's reference fix and each blind wrong fix differ
(harness/blind_demo.py; run with scripts/blind_demos.py --bug uint64_scalar).

The fix is a device runtime, so every program is a kernel that reads a scalar from the host,
compiled for OpenCL (llvm host) and launched on pocl with the OpenCL runtime that the fix under
test selects: what is compared is the values the kernel stored, or why the launch failed."""

import numpy as np

from harness.blind_demo import Demo, compile_and_run
from harness.reference_fixes import opencl_runtime
from tvm.script import tirx as T


def launched(*inputs):
    """The observer: load the runtime the fix selected (after it was installed, so not by
    ``Demo.opencl``), launch the program with ``inputs``; the values of its buffers (the arrays
    among ``inputs``)."""

    def observe(func):
        reason = opencl_runtime().load()
        if reason:
            return reason
        buffers = [i for i, x in enumerate(inputs) if isinstance(x, np.ndarray)]
        return compile_and_run(func, list(inputs), buffers)

    return observe


@T.prim_func
def stores_x(A: T.Buffer((4,), "uint64"), x: T.uint64):
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = x


def x_plus_index(dtype):
    """A kernel stores an argument x of ``dtype`` plus its thread index."""
    X = getattr(T, dtype)

    @T.prim_func
    def func(A: T.Buffer((4,), dtype), x: X):
        for i in T.thread_binding(4, thread="threadIdx.x"):
            A[i] = x + T.Cast(dtype, i)

    return func


@T.prim_func
def x_plus_y(A: T.Buffer((4,), "uint64"), x: T.uint64, y: T.int32):
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = x + T.Cast("uint64", y)


@T.prim_func
def int64_beside_uint64(
    A: T.Buffer((4,), "int64"), U: T.Buffer((4,), "uint64"), x: T.int64, y: T.uint64
):
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = x
        U[i] = y


@T.prim_func
def tripled_on_host(A: T.Buffer((4,), "uint64"), x: T.uint64):
    y: T.let[T.uint64] = x * T.uint64(3)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = y + T.Cast("uint64", i)


@T.prim_func
def top_bit_on_host(A: T.Buffer((4,), "uint64"), x: T.uint64):
    y: T.let[T.uint64] = x | (T.uint64(1) << T.uint64(63))
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = y


BIG = 2**40 + 3  # its high 32 bits are not zero
U64 = np.zeros(4, "uint64")


DEMOS = {
    # the report's program: the wrong fix maps uint64 to INT64_TO_UINT32 (the low 32 bits)
    "blind2-uint64-as-uint32": Demo(lambda: stores_x, launched(U64, BIG)),
    # an int64 scalar beside a uint64 one: the wrong fix's line lands in the int branch, so
    # uint64 is still refused
    "blind2-line-in-int-branch": Demo(
        lambda: int64_beside_uint64, launched(np.zeros(4, "int64"), U64, -7, 2**33 + 1)
    ),
    # a uint64 T.let computed on the host (x * 3): the wrong fix compares bits with bytes
    # (matches uint8), so uint64 is still refused
    "blind2-bits-vs-bytes": Demo(lambda: tripled_on_host, launched(U64, 2**35)),
    # a host uint64 with its top bit set (x | 1 << 63): the wrong fix refuses a negative int64
    "blind2-top-bit-rejected": Demo(lambda: top_bit_on_host, launched(U64, 12)),
    # x + thread index: the wrong fix maps uint64 to the uint branch's INT64_TO_UINT32
    "blind3-uint32-code": Demo(lambda: x_plus_index("uint64"), launched(U64, BIG)),
    # x then an int32 y: the wrong fix's 8-byte copy of x into a 4-byte holder is overwritten
    # in its high half by y
    "blind3-holder-overflow": Demo(lambda: x_plus_y, launched(U64, BIG, 7)),
    # the wrong fix hands the runtime x itself as the address of the argument
    "blind3-value-as-address": Demo(lambda: x_plus_index("uint64"), launched(U64, BIG)),
    # the wrong fix's new case falls through into INT64_TO_INT32 (a 32-bit holder)
    "blind3-case-fallthrough": Demo(lambda: x_plus_index("uint64"), launched(U64, BIG)),
    # a uint8 scalar (without the narrow-scalar fix): the reference refuses the launch (Cannot
    # handle uint8), the wrong fix, passing every unsigned width, launches it
    "blind3-every-uint-width": Demo(
        lambda: x_plus_index("uint8"), launched(np.zeros(4, "uint8"), 200)
    ),
    # the wrong fix's line sits in the kDLInt branch, where it never runs: still refused
    "blind3-dead-in-int-branch": Demo(lambda: x_plus_index("uint64"), launched(U64, BIG)),
}
