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


def _cast_kernel(dtype, scalar="int32"):
    """A kernel that stores its scalar argument, cast to ``dtype``, in a ``dtype`` buffer."""
    element, _, lanes = dtype.partition("x")

    def value(n):
        return T.Broadcast(T.Cast(element, n), int(lanes)) if lanes else T.Cast(element, n)

    @T.prim_func
    def main(A: T.Buffer((1,), dtype), n: getattr(T, scalar)):
        for _ in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = value(n)

    return main


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="WebGPU refuses a dtype the target lacks with an internal error",
)
@pytest.mark.parametrize(
    "dtype, scalar, refusal",
    [
        pytest.param(t, "int32", f"represent the type {t}", id=t)
        for t in ["int64", "uint64", "float64", "int64x2", "float32x8"]
    ]
    + [
        pytest.param("float32", t, f"pass a kernel argument of type {t}", id=f"{t}-argument")
        for t in ("uint64", "float64")
    ],
)
def test_webgpu_rejects_a_type_it_lacks(dtype, scalar, refusal):
    """A type WGSL lacks, or a kernel argument it cannot pass, is a ValueError naming it"""
    with pytest.raises(ValueError, match=rf"webgpu target cannot {refusal}:"):
        tvm.compile(_cast_kernel(dtype, scalar), target="webgpu")


@pytest.mark.parametrize("dtype", ["int32", "uint32", "float16", "float32x4", "int8x4"])
def test_webgpu_compiles_the_types_it_has(dtype):
    """The types WGSL has compile: 32-bit scalars, f16 and vectors of up to 4 lanes"""
    tvm.compile(_cast_kernel(dtype), target="webgpu")


if __name__ == "__main__":
    tvm.testing.main()
