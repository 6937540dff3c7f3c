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
"""uint64 kernel scalars across the value range, on OpenCL (this repository only).

The upstream test (test_target_codegen_opencl.py::test_opencl_64_bit_scalar_argument) passes
one uint64 with the top bit set and one below 2**32. A runtime fix that takes the 32-bit slot
for some values (a 32-bit holder in PackFuncVoidAddr_, half of the 8-byte parameter) and the
64-bit slot for the others is wrong for one side: here every edge of the range, 0 to 2**63 and
above. The kernel's next parameter is a uint32 of 5, so that the half a 32-bit holder leaves is
never 0 by chance (upstream it is whatever lies on the stack), nor 1 (which would hide a
truncated 2**32); a uint32, so that a fix that turns the uint branch's 32-bit line into the
64-bit one, instead of adding one, refuses every case. The uint64 is computed on the host
(Python passes no uint64 of 2**63 or more). Skipped without an OpenCL device.
"""

import functools

import numpy as np
import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T

# the values (x << s) the kernel receives, as (x, s)
VALUES = {
    "0": (0, 0),
    "1": (1, 0),
    "2**32-1": (2**32 - 1, 0),
    "2**32": (1, 32),
    "2**40+3": (2**40 + 3, 0),
    "2**63": (1, 63),
    "2**63+3*2**23": (2**40 + 3, 23),
}


@functools.cache
def _compiled():
    @T.prim_func
    def main(
        B: T.Buffer(8, "uint64"), C: T.Buffer(8, "uint64"), x: T.uint64, s: T.uint64, z: T.uint32
    ):
        y: T.let[T.uint64] = x << s
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = B[i] + y + T.Cast("uint64", z)

    return tvm.compile(main, target="opencl")


@pytest.mark.skipif(not tvm.testing.env.has_opencl(), reason="needs an OpenCL device")
@pytest.mark.xfail(
    strict=True, raises=tvm.error.InternalError, reason="uint64 kernel scalar: no runtime packing"
)
@pytest.mark.parametrize("value", VALUES)
def test_uint64_kernel_scalar_reaches_the_kernel(value):
    x, s = VALUES[value]
    dev = tvm.opencl(0)
    b = tvm.runtime.tensor(np.arange(8, dtype="uint64"), device=dev)
    c = tvm.runtime.empty((8,), "uint64", device=dev)
    _compiled()["main"](b, c, x, s, 5)
    expected = np.arange(8, dtype="uint64") + np.uint64((x << s) % 2**64) + np.uint64(5)
    np.testing.assert_array_equal(c.numpy(), expected)
