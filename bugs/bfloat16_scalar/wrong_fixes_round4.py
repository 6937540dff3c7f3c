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
"""Blind round 4 wrong fixes of the bfloat16 host scalar report (patch 0009): each makes one
mistake in one step of bugs/bfloat16_scalar/reference_fix.py."""

from bugs.bfloat16_scalar import reference_fix as fix
from harness.tvm_line import ir
from tvm import tirx

WRONG_FIXES = {
    "blind4-bits-truncate": "BFloat16Bits of a computed float32 keeps its top 16 bits "
    "(truncation) instead of rounding to nearest even: a bfloat16 argument 1.01171875 "
    "arrives as 1.0078125",
    "blind4-nan-not-kept": "BFloat16Bits rounds a NaN like a number (no quiet-NaN select): a "
    "NaN argument whose payload is all ones arrives as -0.0",
    "blind4-let-rounded": "B1 binds a computed bfloat16 T.let to its value rounded to "
    "bfloat16 (in a float32 variable) instead of the float32 value itself",
    "blind4-truncmod-missed": "B1 computes // and floormod of bfloat16 in float32 but "
    "forgets % (truncmod): a bfloat16 T.let of truncmod is left in bfloat16 and rejected",
    "blind4-pipeline-s-tir-only": "B4's BF16ComputeLegalize after MakePackedAPI is added to "
    "the s_tir pipeline only: host code of tvm.tirx's pipelines for a cuda target with native "
    "bfloat16 is not legalized",
    "blind4-decode-through-float16": "B2 decodes a bfloat16 argument from the FFI's float64 "
    "through float16 (the stand-in's cast kept) before float32: values beyond float16's range "
    "(70000) arrive as inf",
    "blind4-reinterpret-plain-cast": "B1's KeepType converts a reinterpret's operand computed "
    "in float32 back with a plain Cast to bfloat16, not BFloat16Bits: BF16StorageLegalize "
    "rejects the cast left in bfloat16",
}


def _bits_truncate(value):
    lanes = fix._lanes(value.ty)
    u16 = fix._with_lanes("uint16", lanes)
    if isinstance(value, tirx.FloatImm):
        return tirx.IntImm(u16, fix.constant_bits(float(value.value)))
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    top = fix._cast(u16, u >> tirx.const(16, "uint32"))  # the mistake: no rounding bias
    return fix.nan_kept(value, top)


def _nan_not_kept(_value, rounded):
    return rounded


def _let_rounded(original, legalized):
    if not fix._is_bf16(original.ty) or fix._is_bf16(legalized.ty):
        return legalized
    # the float32 value rounded to bfloat16's precision, to nearest even, kept in float32
    lanes = fix._lanes(legalized.ty)
    u32 = fix._with_lanes("uint32", lanes)
    u = fix._reinterpret(u32, legalized)
    bias = ((u >> tirx.const(16, "uint32")) & tirx.const(1, "uint32")) + tirx.const(
        0x7FFF, "uint32"
    )
    rounded = (u + bias) & tirx.const(0xFFFF0000, "uint32")
    return fix._reinterpret(fix._with_lanes("float32", lanes), rounded)


def _decode_through_float16(dtype, cast):
    return ir.Cast(dtype, cast)  # the stand-in's Cast("float16", slot) kept


def _keep_type_cast(ty, value):
    if not fix._is_bf16(ty) or fix._is_bf16(value.ty):
        return value
    return ir.Cast(str(ty), value)


PATCHES = {
    "blind4-bits-truncate": {"bfloat16_bits": _bits_truncate},
    "blind4-nan-not-kept": {"nan_kept": _nan_not_kept},
    "blind4-let-rounded": {"_bound_value": _let_rounded},
    "blind4-truncmod-missed": {"_MOD_OPS": (tirx.FloorDiv, tirx.FloorMod)},
    "blind4-pipeline-s-tir-only": {"PIPELINES": ("tvm.s_tir.pipeline",)},
    "blind4-decode-through-float16": {"_decode_cast": _decode_through_float16},
    "blind4-reinterpret-plain-cast": {"keep_type": _keep_type_cast},
}
