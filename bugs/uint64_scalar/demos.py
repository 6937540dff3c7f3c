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
(harness/blind_demo.py; run with scripts/blind_demos.py --bug uint64_scalar), every round's.

The fix is a device runtime, so every program is a kernel that reads scalars from the host
(``kernel``: buffers, scalars, and what its threads store), compiled for OpenCL (llvm host) and
launched on pocl with the OpenCL runtime that the fix under test selects: what is compared is
the values the kernel stored, or why the launch failed."""

import numpy as np

from harness.blind_demo import Demo, compile_and_run
from harness.reference_fixes import opencl_runtime


def kernel(buffers, scalars, stores, threads=4, host_let=None):
    """A program: a kernel of the buffer parameters ``buffers`` ([(name, dtype, size)]) and
    the scalar parameters ``scalars`` ([(name, dtype)]), whose ``threads`` threads (index
    ``i``) make the stores ``stores`` ([(target, value)]); ``host_let``: a T.let line the
    host computes before the launch."""
    params = [f'{n}: T.Buffer(({size},), "{d}")' for n, d, size in buffers]
    params += [f"{n}: T.{d}" for n, d in scalars]
    text = (
        f"@T.prim_func\ndef main({', '.join(params)}):\n"
        + (f"    {host_let}\n" if host_let else "")
        + f'    for i in T.thread_binding({threads}, thread="threadIdx.x"):\n'
        + "".join(f"        {target} = {value}\n" for target, value in stores)
    )

    def make():
        from tvm.script import from_source
        from tvm.script import tirx as T

        return from_source(text, extra_vars={"T": T})

    return make


def stored(*dtypes):
    """A program: a kernel storing each scalar ``x<k>`` (of ``dtypes[k]``) into its own
    buffer ``O<k>`` of the same type."""
    return kernel(
        [(f"O{k}", d, 4) for k, d in enumerate(dtypes)],
        [(f"x{k}", d) for k, d in enumerate(dtypes)],
        [(f"O{k}[i]", f"x{k}") for k in range(len(dtypes))],
    )


def x_plus_index(dtype):
    """A program: a kernel stores an argument x of ``dtype`` plus its thread index."""
    return kernel([("A", dtype, 4)], [("x", dtype)], [("A[i]", f'x + T.Cast("{dtype}", i)')])


def x_plus_int32(dtype):
    """A program: A[i] = x + y of a scalar x of ``dtype`` and an int32 y passed after it."""
    return kernel(
        [("A", dtype, 4)], [("x", dtype), ("y", "int32")], [("A[i]", f'x + T.Cast("{dtype}", y)')]
    )


def x_plus_uint32():
    """A program: A[i] = x + y of a uint64 scalar x and a uint32 scalar y after it."""
    return kernel(
        [("A", "uint64", 4)],
        [("x", "uint64"), ("y", "uint32")],
        [("A[i]", 'T.Cast("uint64", x) + T.Cast("uint64", y)')],
    )


def one_thread(scalars, values, out="uint64"):
    """A program: one thread stores each expression of ``values`` into its element of A."""
    stores = [(f"A[{k}]", f'T.Cast("{out}", {v})') for k, v in enumerate(values)]
    return kernel([("A", out, len(values))], scalars, stores, threads=1)


def on_host(let, value):
    """A program: the host computes a uint64 ``y`` as ``let`` (of the uint64 scalar x) before
    the launch; each thread stores ``value`` (of ``y`` and ``i``)."""
    return kernel(
        [("A", "uint64", 4)],
        [("x", "uint64")],
        [("A[i]", value)],
        host_let=f"y: T.let[T.uint64] = {let}",
    )


def launched(*inputs):
    """Observer: load the runtime the fix selected (after it was installed, so not by
    ``Demo.opencl``, which would load the plain one first), launch the program with
    ``inputs``; the values of its buffers (the arrays among ``inputs``)."""

    def observe(func):
        reason = opencl_runtime().load()
        if reason:
            return reason
        buffers = [i for i, x in enumerate(inputs) if isinstance(x, np.ndarray)]
        return compile_and_run(func, list(inputs), buffers)

    return observe


def zeros(*dtypes, n=4):
    return [np.zeros(n, d) for d in dtypes]


BIG = 2**40 + 3  # its high 32 bits are not zero
U64 = np.zeros(4, "uint64")
# x with its top bit set where its dtype has one to spare, beside y = 7
TOP_BIT = {"uint64": -(2**63) + 2**40 + 3, "uint32": 2**31 + 5, "int64": -(2**40) - 3, "uint8": 200}
TOP = 2**62 + 2**40 + 5
X_PLUS_INDEX = x_plus_index("uint64")
U64_THEN_I32 = stored("uint64", "int32")
X_PLUS_UINT32 = x_plus_uint32()


def with_int32(dtype):
    """Round 4's demo: x of ``dtype`` (its top bit set) plus an int32 7."""
    return Demo(x_plus_int32(dtype), launched(np.zeros(4, dtype), TOP_BIT[dtype], 7))


DEMOS = {
    # round 2
    # the report's program: the wrong fix maps uint64 to INT64_TO_UINT32 (the low 32 bits)
    "blind2-uint64-as-uint32": Demo(stored("uint64"), launched(U64, BIG)),
    # an int64 scalar beside a uint64 one: the wrong fix's line lands in the int branch, so
    # uint64 is still refused
    "blind2-line-in-int-branch": Demo(
        stored("int64", "uint64"), launched(*zeros("int64", "uint64"), -7, 2**33 + 1)
    ),
    # a uint64 T.let computed on the host (x * 3): the wrong fix compares bits with bytes
    # (matches uint8), so uint64 is still refused
    "blind2-bits-vs-bytes": Demo(
        on_host("x * T.uint64(3)", 'y + T.Cast("uint64", i)'), launched(U64, 2**35)
    ),
    # a host uint64 with its top bit set (x | 1 << 63): the wrong fix refuses a negative int64
    "blind2-top-bit-rejected": Demo(
        on_host("x | (T.uint64(1) << T.uint64(63))", "y"), launched(U64, 12)
    ),
    # round 3
    # x + thread index: the wrong fix maps uint64 to the uint branch's INT64_TO_UINT32
    "blind3-uint32-code": Demo(X_PLUS_INDEX, launched(U64, BIG)),
    # x then an int32 y: the wrong fix's 8-byte copy of x into a 4-byte holder is overwritten
    # in its high half by y
    "blind3-holder-overflow": Demo(x_plus_int32("uint64"), launched(U64, BIG, 7)),
    # the wrong fix hands the runtime x itself as the address of the argument
    "blind3-value-as-address": Demo(X_PLUS_INDEX, launched(U64, BIG)),
    # the wrong fix's new case falls through into INT64_TO_INT32 (a 32-bit holder)
    "blind3-case-fallthrough": Demo(X_PLUS_INDEX, launched(U64, BIG)),
    # a uint8 scalar (without the narrow-scalar fix): the reference refuses the launch (Cannot
    # handle uint8), the wrong fix, passing every unsigned width, launches it
    "blind3-every-uint-width": Demo(x_plus_index("uint8"), launched(*zeros("uint8"), 200)),
    # the wrong fix's line sits in the kDLInt branch, where it never runs: still refused
    "blind3-dead-in-int-branch": Demo(X_PLUS_INDEX, launched(U64, BIG)),
    # round 4
    "blind4-int32-slot": with_int32("uint64"),
    "blind4-float-branch": with_int32("uint64"),
    "blind4-replaces-uint32": with_int32("uint32"),
    "blind4-int64-line-moved": with_int32("int64"),
    "blind4-new-code-tensormap-case": with_int32("uint64"),
    "blind4-narrow-uints-accepted": with_int32("uint8"),
    # round 5
    "blind5-u64-truncated-to-uint32": Demo(
        U64_THEN_I32, launched(*zeros("uint64", "int32"), 2**40 + 3, 7)
    ),
    "blind5-u64-value-as-address": Demo(
        U64_THEN_I32, launched(*zeros("uint64", "int32"), 2**40 + 3, 7)
    ),
    "blind5-u64-address-of-whole-any": Demo(stored("uint64"), launched(U64, 5)),
    "blind5-u64-replaces-uint32-line": Demo(
        stored("uint32"), launched(*zeros("uint32"), 2**31 + 9)
    ),
    "blind5-u64-case-in-float-group": Demo(
        stored("uint64", "uint32"), launched(*zeros("uint64", "uint32"), 2**33 + 2**20, 11)
    ),
    "blind5-u64-any-other-uint-as-uint32": Demo(stored("uint16"), launched(*zeros("uint16"), 513)),
    # round 6
    # a uint64 scalar alone: its high word
    "blind6-u64-signed32-holder": Demo(
        one_thread([("x", "uint64")], ["x", "x + T.uint64(1)"]),
        launched(*zeros("uint64", n=2), 2**40 + 3),
    ),
    # a uint64 then an int32 scalar: the int32's holder overwrites the uint64's high word
    "blind6-u64-holder-spill": Demo(
        one_thread([("x", "uint64"), ("y", "int32")], ["x", "y"]),
        launched(*zeros("uint64", n=2), 2**40 + 3, 7),
    ),
    # a uint32 scalar with its top bit set, beside a uint64 one
    "blind6-u64-uint32-line-dropped": Demo(
        one_thread([("x", "uint64"), ("u", "uint32")], ["x", "u"]),
        launched(*zeros("uint64", n=2), 5, 2**31 + 9),
    ),
    # an int64 scalar (negative) into an int64 buffer
    "blind6-u64-int64-line-edited": Demo(
        one_thread([("s", "int64")], ["s", "s * T.int64(2)"], out="int64"),
        launched(*zeros("int64", n=2), -(2**40) - 3),
    ),
    # a uint64 whose top bit is set (passed as its int64 bits)
    "blind6-u64-top-bit-refused": Demo(
        one_thread([("x", "uint64")], ["x", "x >> T.uint64(60)"]),
        launched(*zeros("uint64", n=2), -(2**62)),
    ),
    # two uint64 scalars, XORed in the kernel
    "blind6-u64-float-branch": Demo(
        one_thread([("x", "uint64"), ("z", "uint64")], ["x ^ z", "z"]),
        launched(*zeros("uint64", n=2), 2**33 + 1, 2**34),
    ),
    # round 7: a uint64 x and a uint32 y after it
    "blind7-u64-uint32-code": Demo(X_PLUS_UINT32, launched(U64, TOP, 7)),
    "blind7-u64-int32-code": Demo(X_PLUS_UINT32, launched(U64, 2**40 + 3, 1)),
    "blind7-u64-float32-code": Demo(X_PLUS_UINT32, launched(U64, 2**33 + 1, 2)),
    "blind7-u64-tensormap-code": Demo(X_PLUS_UINT32, launched(U64, 9, 2**31 + 1)),
    "blind7-u64-replaces-uint32": Demo(X_PLUS_UINT32, launched(U64, 3, 4)),
    "blind7-u64-bits-typo": Demo(X_PLUS_UINT32, launched(U64, 5, 6)),
}
