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
import math
import struct

import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T


def u16tof32(v):
    uint32_v = v.astype("uint32")
    uint32_v = uint32_v << tvm.tirx.const(16, "uint32")
    return T.reinterpret("float32", uint32_v)


def bf16tof32(v):
    return u16tof32(T.reinterpret("uint16", v))


def f32tou16(v):
    uint32_v = T.reinterpret("uint32", v)
    rounding_bias = (uint32_v >> tvm.tirx.const(16, "uint32")) & tvm.tirx.const(1, "uint32")
    rounding_bias += tvm.tirx.const(0x7FFF, "uint32")
    uint32_v = uint32_v + rounding_bias
    return (uint32_v >> tvm.tirx.const(16, "uint32")).astype("uint16")


def f32tobf16(v):
    return T.reinterpret("bfloat16", f32tou16(v))


def f32tobf16_keep_nan(v):
    bits = T.reinterpret("uint32", v)
    is_nan = (bits & T.uint32(0x7FFFFFFF)) > T.uint32(0x7F800000)
    quiet_nan = T.Cast("uint16", (bits >> T.uint32(16)) | T.uint32(0x40))
    rounded = T.reinterpret("uint16", f32tobf16(v))
    return T.reinterpret("bfloat16", T.Select(is_nan, quiet_nan, rounded))


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="bfloat16 host scalar: BF16ComputeLegalize gives a T.let's variable the old type",
)
def test_bf16_compute_legalize_let():
    """A bfloat16 T.let computed in float32 is retyped; one bound to a bfloat16 variable is not"""

    @T.prim_func(private=True)
    def before(A: T.Buffer((1,), "float32"), n: T.int32, b: T.bfloat16):
        x: T.let[T.bfloat16] = T.Cast("bfloat16", n) * T.bfloat16(1.5)
        y: T.let[T.bfloat16] = b
        A[0] = T.Cast("float32", x) + T.Cast("float32", y)

    @T.prim_func(private=True)
    def expected(A: T.Buffer((1,), "float32"), n: T.int32, b: T.bfloat16):
        x: T.let[T.float32] = T.Cast("float32", n) * T.float32(1.5)
        y: T.let[T.bfloat16] = b
        A[0] = x + bf16tof32(y)

    after = tvm.tirx.transform.BF16ComputeLegalize()(tvm.IRModule.from_expr(before))
    tvm.ir.assert_structural_equal(after["main"], expected)


@pytest.mark.xfail(
    strict=True,
    raises=ValueError,
    reason="bfloat16 host scalar: a reinterpret reads a float32 value",
)
def test_bf16_compute_legalize_reinterpret():
    """A reinterpret of bfloat16 reads the float32 value rounded to bfloat16, NaN kept"""

    @T.prim_func(private=True)
    def before(A: T.Buffer((1,), "uint16"), x: T.bfloat16):
        A[0] = T.reinterpret("uint16", x * T.bfloat16(3.0))

    @T.prim_func(private=True)
    def expected(A: T.Buffer((1,), "uint16"), x: T.bfloat16):
        A[0] = T.reinterpret("uint16", f32tobf16_keep_nan(bf16tof32(x) * T.float32(3.0)))

    after = tvm.tirx.transform.BF16ComputeLegalize()(tvm.IRModule.from_expr(before))
    tvm.ir.assert_structural_equal(after["main"], expected)


@pytest.mark.xfail(
    strict=True,
    raises=(ValueError, tvm.error.InternalError),
    reason="bfloat16 host scalar: BF16ComputeLegalize leaves a bfloat16 modulo "
    "(printing its // and floormod asks for integers)",
)
@pytest.mark.parametrize("op", [tvm.tirx.Mod, tvm.tirx.FloorDiv, tvm.tirx.FloorMod])
def test_bf16_compute_legalize_mod(op):
    """A bfloat16 modulo or floor division is computed in float32 as the other arithmetic is"""

    @T.prim_func(private=True)
    def before(A: T.Buffer((1,), "float32"), x: T.bfloat16, y: T.bfloat16):
        A[0] = T.Cast("float32", op(x, y))

    @T.prim_func(private=True)
    def expected(A: T.Buffer((1,), "float32"), x: T.bfloat16, y: T.bfloat16):
        A[0] = op(bf16tof32(x), bf16tof32(y))

    after = tvm.tirx.transform.BF16ComputeLegalize()(tvm.IRModule.from_expr(before))
    tvm.ir.assert_structural_equal(after["main"], expected)


# 1 + 2**-8 is a tie (to even), 0.0 has no implicit bit, 1/3 rounds up, a NaN keeps its top bits,
# an infinity stays one
NAN_ALL_ONES = struct.unpack("<f", struct.pack("<I", 0x7FFFFFFF))[0]


@pytest.mark.parametrize(
    "value, bits",
    [
        (1 + 2**-8, 0x3F80),
        (0.0, 0x0000),
        (1 / 3, 0x3EAB),
        (NAN_ALL_ONES, 0x7FFF),
        (-math.inf, 0xFF80),
    ],
)
@pytest.mark.xfail(
    strict=True,
    raises=ValueError,
    reason="bfloat16 host scalar: a reinterpret reads a float32 constant",
)
def test_bf16_compute_legalize_constant_bits(value, bits):
    """The bits of a bfloat16 constant are its float32 value rounded to nearest even"""

    @T.prim_func(private=True)
    def before(A: T.Buffer((1,), "uint16")):
        A[0] = T.reinterpret("uint16", T.bfloat16(value))

    @T.prim_func(private=True)
    def expected(A: T.Buffer((1,), "uint16")):
        A[0] = T.reinterpret("uint16", T.reinterpret("bfloat16", T.uint16(bits)))

    after = tvm.tirx.transform.BF16ComputeLegalize()(tvm.IRModule.from_expr(before))
    tvm.ir.assert_structural_equal(after["main"], expected)


@pytest.mark.xfail(
    strict=True,
    raises=ValueError,
    reason="bfloat16 host scalar: BF16StorageLegalize leaves scalars for the code generator",
)
@pytest.mark.parametrize("lanes", [1, 4])
def test_bf16_storage_legalize_scalars(lanes):
    """BF16StorageLegalize holds bfloat16 parameters and T.let variables as uint16 bits"""
    bf16, u16 = ("bfloat16", "uint16") if lanes == 1 else ("bfloat16x4", "uint16x4")

    @T.prim_func(private=True)
    def before(A: T.handle("uint16"), x: T.bfloat16):
        A_1 = T.decl_buffer((lanes,), "uint16", data=A)
        y: T.let[tvm.ir.PrimType(bf16)] = x if lanes == 1 else T.Broadcast(x, lanes)
        A_1[0:lanes] = T.reinterpret(u16, y)

    @T.prim_func(private=True)
    def expected(A: T.handle("uint16"), x: T.uint16):
        A_1 = T.decl_buffer((lanes,), "uint16", data=A)
        y: T.let[tvm.ir.PrimType(u16)] = x if lanes == 1 else T.Broadcast(x, lanes)
        A_1[0:lanes] = y

    after = tvm.tirx.transform.BF16StorageLegalize()(tvm.IRModule.from_expr(before))
    tvm.ir.assert_structural_equal(after["main"], expected)


@pytest.mark.parametrize(
    "compute",
    [
        lambda x: x + x,
        lambda x: T.Max(x, x),
        T.exp,
        lambda x: T.float32(x),
        lambda x: x < x,
        lambda x: T.Select(True, x, x),
    ],
    ids=["arithmetic", "max", "call", "cast", "compare", "select"],
)
@pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,
    reason="bfloat16 host scalar: BF16StorageLegalize computes on the bits",
)
def test_bf16_storage_legalize_rejects_computation(compute):
    """BF16StorageLegalize rejects a bfloat16 computation that BF16ComputeLegalize left"""

    @T.prim_func(private=True)
    def func(x: T.bfloat16):
        T.evaluate(compute(x))

    with pytest.raises(ValueError, match="BF16ComputeLegalize"):
        tvm.tirx.transform.BF16StorageLegalize()(tvm.IRModule.from_expr(func))


if __name__ == "__main__":
    tvm.testing.main()
