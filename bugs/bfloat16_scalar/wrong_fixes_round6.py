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
"""Blind round 6: wrong fixes of the bfloat16 host scalar fix (one step of B1-B3 each), as
edits of the text of bugs/bfloat16_scalar/reference_fix.py (harness/wrong_fixes.py: EDITS)."""

from bugs.bfloat16_scalar.wrong_fixes import (
    _BIAS,
    _CONSTANT,
    _DECODE,
    _KEEP_TYPE,
    _MOD_OPS,
    _QUIET,
    _TIES_AWAY,
)

WRONG_FIXES = {
    "blind6-bf16-ties-away": "BFloat16Bits' rounding bias is a constant 0x8000 (ties away from "
    "zero) instead of 0x7FFF plus the kept bit's lowest bit (ties to even)",
    "blind6-bf16-nan-sign-dropped": "the NaN rule builds the quiet NaN from the magnitude only: "
    "a negative NaN comes out positive",
    "blind6-bf16-int-slot-as-double": "the decode reads the int64 slot's bits as a float64 too "
    "(reinterpret, not Cast): an integer argument decodes to a denormal",
    "blind6-bf16-decode-via-float16": "the decode keeps MakePackedAPI's float16 conversion and "
    "widens that to float32: a value beyond float16's range becomes inf",
    "blind6-bf16-mod-ops-left": "%, // and floormod are not computed in float32 (only the other "
    "arithmetic): BF16StorageLegalize then rejects them",
    "blind6-bf16-const-truncated": "a constant's bits are its float32 bits shifted right 16 "
    "(truncated), not rounded to nearest even",
    "blind6-bf16-keep-type-cast": "a reinterpret's operand computed in float32 is converted back "
    "with a Cast to bfloat16, not BFloat16Bits: BF16StorageLegalize rejects the cast",
}

# the quiet NaN built from the magnitude: a negative NaN loses its sign
_QUIET_UNSIGNED = (
    '((u & tirx.const(0x7FFFFFFF, "uint32")) >> tirx.const(16, "uint32"))'
    ' | tirx.const(0x40, "uint32")'
)

EDITS = {
    "blind6-bf16-ties-away": [(_BIAS, _TIES_AWAY)],
    "blind6-bf16-nan-sign-dropped": [(_QUIET, _QUIET_UNSIGNED)],
    "blind6-bf16-int-slot-as-double": [
        (
            _DECODE,
            "    slot = cast.value\n"
            '    if str(slot.ty).startswith("int"):  # its bits read as a float64\n'
            '        slot = tirx.reinterpret("float64", slot)\n'
            "    return ir.Cast(dtype, slot)",
        )
    ],
    "blind6-bf16-decode-via-float16": [
        (_DECODE, '    return ir.Cast(dtype, ir.Cast("float16", cast.value))')
    ],
    "blind6-bf16-mod-ops-left": [(_MOD_OPS, "_MOD_OPS = ()")],
    "blind6-bf16-const-truncated": [
        (
            _CONSTANT,
            '    (u,) = struct.unpack("<I", struct.pack("<f", value))\n'
            "    if (u & 0x7FFFFFFF) > 0x7F800000:  # NaN: as the reference\n"
            "        return bf16_bits(value)\n"
            "    return u >> 16  # truncated",
        )
    ],
    "blind6-bf16-keep-type-cast": [(_KEEP_TYPE, "    return ir.Cast(str(ty), value)")],
}
