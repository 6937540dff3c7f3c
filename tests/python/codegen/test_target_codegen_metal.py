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

import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T


def _cast_kernel(dtype):
    """A kernel that stores its scalar argument, cast to ``dtype``, in a ``dtype`` buffer."""
    element, _, lanes = dtype.partition("x")

    def value(n):
        return T.Broadcast(T.Cast(element, n), int(lanes)) if lanes else T.Cast(element, n)

    @T.prim_func
    def main(A: T.Buffer((1,), dtype), n: T.int32):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = value(n)

    return main


def _float64_in_second_kernel(int_dtype):
    """Two kernels; the second computes in float64 from the ``int_dtype`` buffer the first writes"""

    @T.prim_func
    def main(A: T.Buffer((1,), int_dtype), B: T.Buffer((1,), "float32")):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast(int_dtype, 1)
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            B[0] = T.Cast("float32", T.Cast("float64", A[0]) * T.float64(3))

    return main


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="Metal refuses a dtype the target lacks with an internal error",
)
@pytest.mark.parametrize(
    "func, dtype",
    [
        pytest.param(_cast_kernel(t), t, id=t)
        for t in ["float64", "float64x2", "float32x8", "int8x8"]
    ]
    + [
        pytest.param(_float64_in_second_kernel(t), "float64", id=f"float64-in-second-kernel-{t}")
        for t in ("int64", "uint64")
    ],
)
def test_metal_rejects_a_type_it_lacks(func, dtype):
    """A type Metal lacks (float64 by design, #7118) is a ValueError naming it"""
    with pytest.raises(ValueError, match=rf"metal target cannot represent the type {dtype}\b"):
        tvm.compile(func, target="metal")


@pytest.mark.parametrize("dtype", ["int64", "uint64", "float16", "float32x4"])
def test_metal_compiles_the_types_it_has(dtype):
    """The types Metal has compile: 64-bit integers, half and vectors of up to 4 lanes"""
    tvm.compile(_cast_kernel(dtype), target="metal")


if __name__ == "__main__":
    tvm.testing.main()
