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
"""Third blind round: wrong fixes of bfloat16_scalar, the bfloat16 host scalar report.

Each is the text of bugs/bfloat16_scalar/reference_fix.py with one plausible mistake in one
step (harness/wrong_fixes.py: EDITS)."""

from bugs.bfloat16_scalar.wrong_fixes import (
    _BIAS,
    _CONVERT_BACK_PLAIN,
    _KEEP_TYPE,
    _MOD_OPS,
    _NAN_DROPPED,
    _NAN_SELECT,
    _NO_HOST_PASS,
    _ROUNDED_BITS,
    _TIES_AWAY,
)
from bugs.bfloat16_scalar.wrong_fixes_round2 import _CONSTANT_TIES_AWAY

WRONG_FIXES = {
    "blind3-bits-truncate": (
        "BFloat16Bits takes the top 16 bits of the float32 (truncation) instead of rounding "
        "to nearest even"
    ),
    "blind3-ties-away": (
        "BFloat16Bits rounds with the bias 0x8000 (ties away from zero) instead of 0x7FFF plus "
        "the kept low bit (ties to even)"
    ),
    "blind3-nan-not-kept": (
        "BFloat16Bits is DTypeConversion's rounding alone: a NaN whose payload is all ones "
        "carries into -0.0"
    ),
    "blind3-no-host-legalize": (
        "the pipelines do not run BF16ComputeLegalize again after MakePackedAPI: host code of a "
        "target that computes in bfloat16 keeps its bfloat16 arithmetic"
    ),
    "blind3-convert-back-plain": (
        "KeepType converts a reinterpret's operand back with DTypeConversion (ConvertBack not "
        "overridden in BF16ComputeLegalizer), not BFloat16Bits: a NaN can carry into -0.0"
    ),
    "blind3-mod-not-promoted": (
        "ComputeLegalizer does not compute %, // and floormod in float32 (no visitors added for "
        "Mod, FloorDiv, FloorMod)"
    ),
}

EDITS = {
    "blind3-bits-truncate": [
        (
            "        return tirx.IntImm(u16, constant_bits(float(value.value)))\n" + _ROUNDED_BITS,
            '        (bits,) = struct.unpack("<I", struct.pack("<f", float(value.value)))\n'
            "        return tirx.IntImm(u16, bits >> 16)\n"
            '    u = _reinterpret(_with_lanes("uint32", lanes), value)\n'
            '    return _cast(u16, u >> tirx.const(16, "uint32"))  # truncated',
        )
    ],
    "blind3-ties-away": [(_BIAS, _TIES_AWAY), ("    return bf16_bits(value)", _CONSTANT_TIES_AWAY)],
    "blind3-nan-not-kept": [(_NAN_SELECT, _NAN_DROPPED)],
    "blind3-no-host-legalize": [_NO_HOST_PASS],
    "blind3-convert-back-plain": [(_KEEP_TYPE, _CONVERT_BACK_PLAIN)],
    "blind3-mod-not-promoted": [(_MOD_OPS, "_MOD_OPS = ()")],
}
