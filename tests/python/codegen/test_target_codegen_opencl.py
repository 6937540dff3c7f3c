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
import re

import numpy as np
import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T
from tvm.testing import env


def _run_on_opencl(func, dtype, x):
    """Build ``func`` for opencl and return ``C`` of ``func(B, C, x)`` with ``B = arange(8)``"""
    lib = tvm.compile(func, target="opencl")

    def run():
        b = tvm.runtime.tensor(np.arange(8).astype(dtype), device=tvm.opencl(0))
        c = tvm.runtime.empty((8,), dtype, device=tvm.opencl(0))
        lib["main"](b, c, x)
        return c.numpy()

    return tvm.testing.run_with_gpu_lock(run)


@pytest.mark.gpu
@pytest.mark.skipif(not env.has_opencl(), reason="need opencl")
@pytest.mark.xfail(strict=True, run=False, reason="host-level scalar on the device: it crashes")
def test_opencl_host_scalar_cell():
    """A host-level scalar that a kernel reads reaches the kernel by value"""

    @T.prim_func
    def main(B: T.Buffer(8, "float32"), C: T.Buffer(8, "float32"), x: T.float32):
        c: T.float32 = x * T.float32(2)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = B[i] + c

    tvm.testing.assert_allclose(_run_on_opencl(main, "float32", 1.5), np.arange(8) + 3.0)


@pytest.mark.gpu
@pytest.mark.skipif(not env.has_opencl(), reason="need opencl")
@pytest.mark.xfail(strict=True, raises=tvm.error.InternalError, reason="narrow kernel scalar")
@pytest.mark.parametrize(
    "dtype, x", [("int8", -100), ("int16", -300), ("uint8", 200), ("uint16", 40000)]
)
def test_opencl_narrow_scalar_argument(dtype, x):
    """A scalar argument narrower than 32 bits reaches the kernel with its value"""
    ty = getattr(T, dtype)

    @T.prim_func
    def main(B: T.Buffer(8, dtype), C: T.Buffer(8, dtype), x: ty):
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = B[i] + x

    expected = (np.arange(8) + x).astype(dtype)
    np.testing.assert_array_equal(_run_on_opencl(main, dtype, x), expected)


_UINT64 = pytest.mark.xfail(
    strict=True, raises=tvm.error.InternalError, reason="uint64 kernel scalar: no runtime packing"
)


@pytest.mark.gpu
@pytest.mark.skipif(not env.has_opencl(), reason="need opencl")
@pytest.mark.parametrize(
    "dtype, x",
    [
        ("int64", 2**40 + 3),
        pytest.param("uint64", 2**40 + 3, marks=_UINT64),
        pytest.param("uint64", 3, marks=_UINT64),
    ],
    ids=["int64", "uint64", "uint64-below-2**32"],
)
def test_opencl_64_bit_scalar_argument(dtype, x):
    """A 64-bit integer scalar reaches the kernel with all of its bits, the top one included"""
    ty = getattr(T, dtype)

    @T.prim_func
    def main(B: T.Buffer(8, dtype), C: T.Buffer(8, dtype), x: ty):
        # computed on the host: Python cannot pass a uint64 of 2**63 or more
        y: T.let[ty] = x << ty(23)
        z: T.let[T.uint32] = T.Cast("uint32", x) + 1  # a 32-bit argument after it
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = B[i] + y + T.Cast(dtype, z)

    expected = np.arange(8).astype(dtype) + (np.array(x, dtype) << np.array(23, dtype)) + 4
    np.testing.assert_array_equal(_run_on_opencl(main, dtype, x), expected)


_REINTERPRET = pytest.mark.xfail(
    strict=True, raises=tvm.error.InternalError, reason="reinterpret of a constant: no lvalue"
)


@pytest.mark.gpu
@pytest.mark.skipif(not env.has_opencl(), reason="need opencl")
@pytest.mark.parametrize(
    "constant", [pytest.param(True, marks=_REINTERPRET), False], ids=["constant", "argument"]
)
@pytest.mark.parametrize(
    "source, value, dtype, lanes",
    [("float32", -0.0, "uint32", 1), ("int32", 0x04030201, "uint8", 4)],
)
def test_opencl_reinterpret_keeps_the_bits(constant, source, value, dtype, lanes):
    """A reinterpret in a kernel gives the bits of its argument, a constant's too"""
    ty = getattr(T, source)
    vector = f"{dtype}x{lanes}" if lanes > 1 else dtype

    @T.prim_func
    def main(B: T.Buffer(8, dtype), C: T.Buffer(8, dtype), x: ty):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            C[0:lanes] = T.reinterpret(vector, ty(value) if constant else x)

    expected = np.array([value], source).view(dtype)
    np.testing.assert_array_equal(_run_on_opencl(main, dtype, value)[:lanes], expected)


@pytest.mark.xfail(
    strict=True, raises=AssertionError, reason="reinterpret of a constant: no lvalue"
)
def test_opencl_reinterpret_of_constant_takes_the_address_of_a_variable():
    """A kernel's reinterpret of a constant takes the address of a variable, never of a literal"""

    @T.prim_func
    def main(A: T.Buffer(8, "uint8")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0:4] = T.reinterpret("uint8x4", T.int32(0x04030201))
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[4:8] = T.reinterpret("uint8x4", T.float32(-0.0))

    source = tvm.tirx.build(main, target="opencl").imports[0].inspect_source()
    addresses = re.findall(r"&\(([^()]*)\)", source)
    assert all(operand.isidentifier() for operand in addresses), addresses


if __name__ == "__main__":
    tvm.testing.main()
