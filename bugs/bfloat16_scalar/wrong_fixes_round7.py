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
"""Blind round 7 wrong fixes of the bfloat16 host scalar fix (patch 0009), each an edit of the
text of bugs/bfloat16_scalar/reference_fix.py (harness/wrong_fixes.py: EDITS)."""

from bugs.bfloat16_scalar.wrong_fixes import (
    _CONSTANT,
    _NAN_SELECT,
    _NOT_REJECTED,
    _QUIET,
    _STORAGE_VAR,
)
from bugs.bfloat16_scalar.wrong_fixes_round6 import _QUIET_UNSIGNED

WRONG_FIXES = {
    "blind7-bf16-const-halfup": (
        "BFloat16Bits' constant branch rounds a tie up (bias 0x8000, no "
        "even test) instead of to nearest even"
    ),
    "blind7-bf16-const-no-nan": (
        "BFloat16Bits' constant branch leaves out the NaN case: the bias "
        "carries an all-ones NaN payload into -0.0"
    ),
    "blind7-bf16-inf-is-nan": (
        "BFloat16Bits' NaN test is >= 0x7F800000: an infinity becomes a quiet NaN"
    ),
    "blind7-bf16-truncate": (
        "BFloat16Bits' non-constant branch takes the top 16 bits (truncation) "
        "instead of DTypeConversion's rounding"
    ),
    "blind7-bf16-nan-drops-sign": (
        "BFloat16Bits' quiet NaN is built from the magnitude (u & "
        "0x7FFFFFFF) >> 16: a negative NaN loses its sign"
    ),
    "blind7-bf16-storage-accepts": (
        "BF16StorageLegalize lowers a computation left in bfloat16 to "
        "its bits instead of raising the ValueError"
    ),
    "blind7-bf16-vector-var-scalar": (
        "BF16StorageLegalize remaps a bfloat16 variable to a scalar uint16 whatever its lanes"
    ),
}

# the constant's float32 bits, as the constant branch reads them
_CONSTANT_U = '    (u,) = struct.unpack("<I", struct.pack("<f", value))\n'

EDITS = {
    "blind7-bf16-const-halfup": [
        (
            _CONSTANT,
            _CONSTANT_U + "    if (u & 0x7FFFFFFF) > 0x7F800000:\n"
            "        return ((u >> 16) | 0x40) & 0xFFFF\n"
            "    return ((u + 0x8000) >> 16) & 0xFFFF  # a tie rounds up",
        )
    ],
    "blind7-bf16-const-no-nan": [
        (_CONSTANT, _CONSTANT_U + "    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF")
    ],
    "blind7-bf16-inf-is-nan": [
        (') > tirx.const(0x7F800000, "uint32")', ') >= tirx.const(0x7F800000, "uint32")')
    ],
    "blind7-bf16-truncate": [
        (
            _NAN_SELECT,
            '    rounded = _cast(_with_lanes("uint16", lanes), u >> tirx.const(16, "uint32"))\n'
            + _NAN_SELECT,
        )
    ],
    "blind7-bf16-nan-drops-sign": [(_QUIET, _QUIET_UNSIGNED)],
    "blind7-bf16-storage-accepts": [_NOT_REJECTED],
    "blind7-bf16-vector-var-scalar": [(_STORAGE_VAR, '    return ir.Var(var.name, "uint16")')],
}
