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
mistake in one step, as an edit of the text of bugs/bfloat16_scalar/reference_fix.py
(harness/wrong_fixes.py: EDITS)."""

from bugs.bfloat16_scalar.wrong_fixes import (
    _BOUND_VALUE,
    _DECODE,
    _KEEP_TYPE,
    _MOD_OPS,
    _NAN_DROPPED,
    _NAN_SELECT,
    _PIPELINES,
    _ROUNDED_BITS,
    _TRUNCATED_BITS,
)

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

EDITS = {
    "blind4-bits-truncate": [(_ROUNDED_BITS, _TRUNCATED_BITS)],
    "blind4-nan-not-kept": [(_NAN_SELECT, _NAN_DROPPED)],
    "blind4-let-rounded": [
        (
            _BOUND_VALUE,
            "    if not _is_bf16(_original.ty) or _is_bf16(legalized.ty):\n"
            "        return legalized\n"
            "    # rounded to bfloat16's precision (to nearest even), kept in float32\n"
            "    lanes = _lanes(legalized.ty)\n"
            '    u = _reinterpret(_with_lanes("uint32", lanes), legalized)\n'
            '    bias = ((u >> tirx.const(16, "uint32")) & tirx.const(1, "uint32")) + tirx.const(\n'
            '        0x7FFF, "uint32"\n'
            "    )\n"
            '    rounded = (u + bias) & tirx.const(0xFFFF0000, "uint32")\n'
            '    return _reinterpret(_with_lanes("float32", lanes), rounded)\n',
        )
    ],
    "blind4-truncmod-missed": [(_MOD_OPS, "_MOD_OPS = (tirx.FloorDiv, tirx.FloorMod)")],
    "blind4-pipeline-s-tir-only": [(_PIPELINES, 'PIPELINES = ("tvm.s_tir.pipeline",)')],
    "blind4-decode-through-float16": [(_DECODE, "    return ir.Cast(dtype, cast)")],
    "blind4-reinterpret-plain-cast": [(_KEEP_TYPE, "    return ir.Cast(str(ty), value)")],
}
