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


def _vector(dtype, lanes):
    return dtype if lanes == 1 else f"{dtype}x{lanes}"


def _splat(value, lanes):
    return value if lanes == 1 else T.Broadcast(value, lanes)


def _uint32(value, lanes):
    return _splat(T.uint32(value), lanes)


def _bits_to_float32(bits, lanes):
    shifted = T.Cast(_vector("uint32", lanes), bits) << _uint32(16, lanes)
    return T.reinterpret(_vector("float32", lanes), shifted)


def _float32_to_bits(value, lanes):
    bits = T.reinterpret(_vector("uint32", lanes), value)
    rounded = bits + (((bits >> _uint32(16, lanes)) & _uint32(1, lanes)) + _uint32(0x7FFF, lanes))
    return T.Cast(_vector("uint16", lanes), rounded >> _uint32(16, lanes))


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="bfloat16 host scalar: BF16ComputeLegalize gives a T.let's variable the old type",
)
def test_bf16_compute_legalize_let():
    """A bfloat16 T.let is computed in float32: its value is legalized, its variable retyped"""

    @T.prim_func(private=True)
    def before(A: T.Buffer((1,), "float32"), n: T.int32):
        x: T.let[T.bfloat16] = T.Cast("bfloat16", n) * T.bfloat16(1.5)
        A[0] = T.Cast("float32", x)

    @T.prim_func(private=True)
    def expected(A: T.Buffer((1,), "float32"), n: T.int32):
        x: T.let[T.float32] = T.Cast("float32", n) * T.float32(1.5)
        A[0] = x

    after = tvm.tirx.transform.BF16ComputeLegalize()(tvm.IRModule.from_expr(before))
    tvm.ir.assert_structural_equal(after["main"], expected)


@pytest.mark.xfail(
    strict=True,
    raises=ValueError,
    reason="bfloat16 host scalar: BF16StorageLegalize leaves scalars for the code generator",
)
@pytest.mark.parametrize("lanes", [1, 4])
def test_bf16_storage_legalize_scalars(lanes):
    """BF16StorageLegalize holds bfloat16 parameters, T.let variables and casts as uint16 bits"""
    bf16, u16, f32 = (_vector(dtype, lanes) for dtype in ("bfloat16", "uint16", "float32"))

    @T.prim_func(private=True)
    def before(A: T.handle("float32"), n: T.int32, z: T.bfloat16):
        A_1 = T.decl_buffer((lanes,), data=A)
        x: T.let[tvm.ir.PrimType(bf16)] = T.Cast(bf16, _splat(T.Cast("float32", n), lanes))
        A_1[0:lanes] = T.Cast(f32, x) * _splat(T.Cast("float32", z), lanes)

    @T.prim_func(private=True)
    def expected(A: T.handle("float32"), n: T.int32, z: T.uint16):
        A_1 = T.decl_buffer((lanes,), data=A)
        x: T.let[tvm.ir.PrimType(u16)] = _float32_to_bits(
            _splat(T.Cast("float32", n), lanes), lanes
        )
        A_1[0:lanes] = _bits_to_float32(x, lanes) * _splat(_bits_to_float32(z, 1), lanes)

    after = tvm.tirx.transform.BF16StorageLegalize()(tvm.IRModule.from_expr(before))
    tvm.ir.assert_structural_equal(after["main"], expected)


@pytest.mark.xfail(
    strict=True,
    raises=ValueError,
    reason="bfloat16 host scalar: BF16StorageLegalize leaves constants for the code generator",
)
@pytest.mark.parametrize("value, bits", [(0.5, 0x3F00), (0.0, 0x0000), (1 / 3, 0x3EAB)])
def test_bf16_storage_legalize_constant(value, bits):
    """A bfloat16 constant becomes the bits of its float32 value rounded to nearest even"""

    @T.prim_func(private=True)
    def before(A: T.handle("uint16")):
        A_1 = T.decl_buffer((1,), "uint16", data=A)
        A_1[0] = T.reinterpret("uint16", T.bfloat16(value))

    @T.prim_func(private=True)
    def expected(A: T.handle("uint16")):
        A_1 = T.decl_buffer((1,), "uint16", data=A)
        A_1[0] = T.uint16(bits)

    after = tvm.tirx.transform.BF16StorageLegalize()(tvm.IRModule.from_expr(before))
    tvm.ir.assert_structural_equal(after["main"], expected)


@pytest.mark.xfail(
    strict=True,
    raises=ValueError,
    reason="bfloat16 host scalar: BF16StorageLegalize leaves arithmetic for the code generator",
)
def test_bf16_storage_legalize_arithmetic():
    """BF16StorageLegalize computes bfloat16 arithmetic left to it in float32, then rounds it"""

    @T.prim_func(private=True)
    def before(A: T.handle("float32"), x: T.bfloat16):
        A_1 = T.decl_buffer((2,), data=A)
        A_1[0] = T.Cast("float32", x + x)
        A_1[1] = T.Cast("float32", x < x)

    @T.prim_func(private=True)
    def expected(A: T.handle("float32"), x: T.uint16):
        A_1 = T.decl_buffer((2,), data=A)
        A_1[0] = _bits_to_float32(
            _float32_to_bits(_bits_to_float32(x, 1) + _bits_to_float32(x, 1), 1), 1
        )
        A_1[1] = T.Cast("float32", _bits_to_float32(x, 1) < _bits_to_float32(x, 1))

    after = tvm.tirx.transform.BF16StorageLegalize()(tvm.IRModule.from_expr(before))
    tvm.ir.assert_structural_equal(after["main"], expected)


@pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,
    reason="bfloat16 host scalar: BF16StorageLegalize leaves calls for the code generator",
)
def test_bf16_storage_legalize_rejects_call():
    """BF16StorageLegalize rejects a bfloat16 call left to it: compute it in float32"""

    @T.prim_func(private=True)
    def func(A: T.handle("float32"), x: T.bfloat16):
        A_1 = T.decl_buffer((1,), data=A)
        A_1[0] = T.Cast("float32", T.exp(x))

    with pytest.raises(ValueError, match="compute it in float32"):
        tvm.tirx.transform.BF16StorageLegalize()(tvm.IRModule.from_expr(func))


if __name__ == "__main__":
    tvm.testing.main()
