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
"""Blind round 8 (blind8c): wrong fixes of the bfloat16 host scalar report (patch 0009).

Each is the reference fix's text with one step of the C++ patch changed: BFloat16Bits'
rounding and NaN rule (expression and constant forms), the floor/mod operations that
ComputeLegalizer newly computes in float32, DecodeParam's bfloat16 decode, KeepType's guard,
and BF16StorageLegalizer's rejections. bugs/bfloat16_scalar/demos_round8.py shows each.
"""

WRONG_FIXES = {
    "blind8-bits-truncate": "BFloat16Bits of a computed value truncates (cast(uint16, u >> 16)) "
    "instead of DTypeConversion's rounding to nearest even",
    "blind8-nan-unkept": "BFloat16Bits of a computed value returns DTypeConversion's bits alone: "
    "no Select keeping a NaN (an all-ones payload rounds to -0.0)",
    "blind8-nan-not-quiet": "BFloat16Bits' NaN branch keeps the top of the payload but forgets "
    "the quiet bit (| 0x40): a NaN with a low payload becomes infinity",
    "blind8-const-tie-away": "BFloat16Bits of a constant rounds ties away from zero "
    "((u + 0x8000) >> 16) instead of to nearest even",
    "blind8-const-inf-nan": "BFloat16Bits of a constant tests magnitude >= 0x7F800000 for NaN: "
    "an infinity constant becomes a quiet NaN",
    "blind8-floormod-missed": "ComputeLegalizer adds DEFINE_BIOP_EXPR_LEGALIZE for Mod and "
    "FloorDiv but not FloorMod: a bfloat16 floormod stays bfloat16",
    "blind8-decode-cast": "DecodeParam converts the float32 value with Cast(bfloat16, v) "
    "instead of reinterpret(bfloat16, BFloat16Bits(v))",
    "blind8-cast-from-accepted": "BF16StorageLegalizer's Cast visitor rejects a cast to "
    "bfloat16 only, not one from a bfloat16 value",
    "blind8-select-accepted": "BF16StorageLegalizer rejects arithmetic and casts left in "
    "bfloat16 but not a Select (SelectNode missing from the list)",
}

EDITS = {
    "blind8-bits-truncate": [
        (
            "    return nan_kept(value, _reinterpret(u16, f32_to_bf16(value)))",
            '    return nan_kept(value, _cast(u16, _reinterpret(_with_lanes("uint32", lanes), '
            'value) >> tirx.const(16, "uint32")))',
        )
    ],
    "blind8-nan-unkept": [
        (
            "    return tirx.Select(is_nan, quiet, rounded)",
            "    return rounded",
        )
    ],
    "blind8-nan-not-quiet": [
        (
            '(u >> tirx.const(16, "uint32")) | tirx.const(0x40, "uint32")',
            '(u >> tirx.const(16, "uint32"))',
        )
    ],
    "blind8-const-tie-away": [
        (
            "        if rest > 0x8000 or (rest == 0x8000 and bits & 1):",
            "        if rest >= 0x8000:",
        )
    ],
    "blind8-const-inf-nan": [
        (
            "    if mag > 0x7F800000:  # NaN",
            "    if mag >= 0x7F800000:  # NaN",
        )
    ],
    "blind8-floormod-missed": [
        (
            "_MOD_OPS = (tirx.Mod, tirx.FloorDiv, tirx.FloorMod)",
            "_MOD_OPS = (tirx.Mod, tirx.FloorDiv)",
        )
    ],
    "blind8-decode-cast": [
        (
            "        return ir.Bind(param, _reinterpret(dtype, bfloat16_bits(select)))",
            "        return ir.Bind(param, ir.Cast(dtype, select))",
        )
    ],
    "blind8-cast-from-accepted": [
        (
            "        if _is_bf16(cast.ty) or _is_bf16(cast.value.ty):",
            "        if _is_bf16(cast.ty):",
        )
    ],
    "blind8-select-accepted": [
        (
            "        if _is_bf16(select.ty):\n            reject_uncomputed(select)\n",
            "",
        )
    ],
}
