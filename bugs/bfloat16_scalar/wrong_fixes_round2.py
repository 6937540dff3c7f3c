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
"""Wrong fixes of the bfloat16 host scalar report (blind round 2): each one small mistake in
one step (B1-B4 of the C++ patch 0009), as an edit of the text of
bugs/bfloat16_scalar/reference_fix.py (harness/wrong_fixes.py: EDITS)."""

from bugs.bfloat16_scalar.wrong_fixes import (
    _CONSTANT,
    _CONVERT_BACK_PLAIN,
    _DECODE,
    _KEEP_TYPE,
    _MOD_OPS,
    _NAN_DROPPED,
    _NAN_SELECT,
    _ROUNDED_BITS,
    _TRUNCATED_BITS,
)

WRONG_FIXES = {
    "blind2-nan-not-kept": (
        "BFloat16Bits is DTypeConversion's rounding alone, without the quiet-NaN rule: a NaN "
        "whose payload is all ones is carried by the rounding bias into -0.0"
    ),
    "blind2-const-ties-away": (
        "BFloat16Bits of a constant rounds half away from zero ((u + 0x8000) >> 16) instead "
        "of to nearest even: a float32 tie rounds up"
    ),
    "blind2-float-slot-only": (
        "MakePackedAPI decodes a bfloat16 argument from the FFI's float64 slot whatever its "
        "type index: an int argument's bits are read as a double"
    ),
    "blind2-decode-truncates": (
        "BFloat16Bits of a computed value truncates the float32 bits (u >> 16) instead of "
        "rounding them to nearest even"
    ),
    "blind2-convertback-plain": (
        "BF16ComputeLegalizer does not override ConvertBack: a reinterpret's operand computed "
        "in float32 goes back through DTypeConversion, without BFloat16Bits' NaN rule"
    ),
    "blind2-retype-kept-values": (
        "a Bind's bfloat16 variable is retyped to float32 whatever its value, also when the "
        "value stays bfloat16 (a reinterpret, a variable, a load)"
    ),
    "blind2-mod-forgotten": (
        "ComputeLegalizer gets visitors for // and floormod but not for % (Mod), which stays "
        "in bfloat16 and is rejected by BF16StorageLegalize"
    ),
    "blind2-legalize-before-packed-api": (
        "the pipelines run the second BF16ComputeLegalize just before MakePackedAPI, where a "
        "host function still has its device target, instead of after it"
    ),
}

# BFloat16Bits of a constant whose tie rounds away from zero (a NaN as the reference rounds it)
_CONSTANT_TIES_AWAY = (
    '    (u,) = struct.unpack("<I", struct.pack("<f", value))\n'
    "    if (u & 0x7FFFFFFF) > 0x7F800000:  # NaN: as the reference\n"
    "        return bf16_bits(value)\n"
    "    return ((u + 0x8000) >> 16) & 0xFFFF  # a tie rounds away from zero"
)

EDITS = {
    "blind2-nan-not-kept": [(_NAN_SELECT, _NAN_DROPPED)],
    "blind2-const-ties-away": [(_CONSTANT, _CONSTANT_TIES_AWAY)],
    "blind2-float-slot-only": [
        (
            _DECODE,
            "    slot = cast.value\n"
            '    if str(slot.ty) != "float64":  # the int64 slot read as the union\'s double\n'
            '        slot = _reinterpret("float64", slot)\n'
            "    return ir.Cast(dtype, slot)",
        )
    ],
    "blind2-decode-truncates": [(_ROUNDED_BITS, _TRUNCATED_BITS)],
    "blind2-convertback-plain": [(_KEEP_TYPE, _CONVERT_BACK_PLAIN)],
    "blind2-retype-kept-values": [
        (
            "    def stays_bf16(value):\n",
            "    def stays_bf16(value):\n        return False  # the value's kind is not asked\n",
        )
    ],
    "blind2-mod-forgotten": [(_MOD_OPS, "_MOD_OPS = (tirx.FloorDiv, tirx.FloorMod)")],
    "blind2-legalize-before-packed-api": [
        (
            "    result = _make_packed_api(inner, mod)\n"
            "    return host_compute_legalize(result) if in_pipeline else result",
            "    if in_pipeline:  # before MakePackedAPI: the device target still\n"
            "        mod = host_compute_legalize(mod)\n"
            "    return _make_packed_api(inner, mod)",
        )
    ],
}
