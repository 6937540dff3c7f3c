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
"""Blind round 6 demos of the uint64 kernel scalar runtime: launches on pocl."""

import numpy as np

from harness.blind_demo import Demo, compile_and_run


def kernel(params, stores, out="uint64", n=2, host_let=""):
    """A kernel that writes ``stores`` (one expression per element of A, dtype ``out``) from the
    scalars ``params`` ([(name, dtype)]); ``host_let``: a host-level T.let line before it."""
    from tvm.script import from_source

    args = ", ".join(f"{p}: T.{d}" for p, d in params)
    body = "\n".join(f"        A[{k}] = T.Cast('{out}', {e})" for k, e in enumerate(stores))
    text = (
        "@T.prim_func\n"
        f"def main(A: T.Buffer(({n},), '{out}'), {args}):\n"
        + (f"    {host_let}\n" if host_let else "")
        + "    for i in T.thread_binding(1, thread='threadIdx.x'):\n"
        + body
        + "\n"
    )
    return lambda: from_source(text)


def run(*scalars, out="uint64", n=2):
    """Observer: the launch's values on pocl, with the OpenCL runtime the fix selected (loaded
    here, after the fix is installed)."""

    def observe(func):
        from harness.reference_fixes import opencl_runtime

        opencl_runtime().load()
        return compile_and_run(func, [np.zeros(n, out), *scalars], [0])

    return observe


DEMOS = {
    # a uint64 scalar alone: its high word
    "blind6-u64-signed32-holder": Demo(
        kernel([("x", "uint64")], ["x", "x + T.uint64(1)"]), run(2**40 + 3)
    ),
    # a uint64 then an int32 scalar: the int32's holder overwrites the uint64's high word
    "blind6-u64-holder-spill": Demo(
        kernel([("x", "uint64"), ("y", "int32")], ["x", "y"]), run(2**40 + 3, 7)
    ),
    # a uint32 scalar with its top bit set, beside a uint64 one
    "blind6-u64-uint32-line-dropped": Demo(
        kernel([("x", "uint64"), ("u", "uint32")], ["x", "u"]), run(5, 2**31 + 9)
    ),
    # an int64 scalar (negative) into an int64 buffer
    "blind6-u64-int64-line-edited": Demo(
        kernel([("s", "int64")], ["s", "s * T.int64(2)"], out="int64"),
        run(-(2**40) - 3, out="int64"),
    ),
    # a uint64 whose top bit is set (passed as its int64 bits)
    "blind6-u64-top-bit-refused": Demo(
        kernel([("x", "uint64")], ["x", "x >> T.uint64(60)"]), run(-(2**62))
    ),
    # two uint64 scalars, XORed in the kernel
    "blind6-u64-float-branch": Demo(
        kernel([("x", "uint64"), ("z", "uint64")], ["x ^ z", "z"]), run(2**33 + 1, 2**34)
    ),
}
