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
"""Blind round 5: wrong fixes of the bfloat16 host scalars (apache/tvm only, as the reference
fix). Each changes one step of bugs/bfloat16_scalar/reference_fix.py, as an edit of its text
(harness/wrong_fixes.py: EDITS)."""

from bugs.bfloat16_scalar.wrong_fixes import (
    _BIAS,
    _KEEP_TYPE,
    _MOD_OPS,
    _NAN_DROPPED,
    _NAN_SELECT,
    _NO_PARAMS,
    _PIPELINES,
    _TIES_AWAY,
)

WRONG_FIXES = {
    "blind5-bf16-ties-away": (
        "BFloat16Bits rounds with a fixed bias of 0x8000 instead of 0x7FFF plus the kept lowest "
        "bit: a float32 tie rounds away from zero, not to even"
    ),
    "blind5-bf16-nan-not-kept": (
        "BFloat16Bits of a computed value is DTypeConversion's rounding alone (no Select on "
        "NaN): a NaN argument with an all-ones payload decodes to -0.0"
    ),
    "blind5-bf16-truncmod-not-computed": (
        "ComputeLegalizer gets the floordiv and floormod legalizers but not the one for Mod "
        "(%, T.truncmod): a bfloat16 T.truncmod stays bfloat16 and stops the host codegen"
    ),
    "blind5-bf16-host-legalize-tirx-pipeline-only": (
        "BF16ComputeLegalize after MakePackedAPI is added to the tirx compilation pipelines "
        "only, not to s_tir's default pipeline (which tvm.compile uses)"
    ),
    "blind5-bf16-params-not-remapped": (
        "BF16StorageLegalize remaps bfloat16 Bind and Let variables but not the function's "
        "parameters: a bfloat16 parameter stays bfloat16"
    ),
    "blind5-bf16-minmax-not-rejected": (
        "BF16StorageLegalize's list of arithmetic left in bfloat16 lacks Min and Max: a "
        "bfloat16 max left uncomputed becomes a max of the uint16 bits (wrong for negative "
        "values) instead of a ValueError"
    ),
    "blind5-bf16-reinterpret-operand-not-rounded": (
        "the reinterpret visitor visits its operand but does not KeepType it: a bfloat16 "
        "operand computed in float32 reaches reinterpret as float32"
    ),
}

EDITS = {
    "blind5-bf16-ties-away": [(_BIAS, _TIES_AWAY)],
    "blind5-bf16-nan-not-kept": [(_NAN_SELECT, _NAN_DROPPED)],
    "blind5-bf16-truncmod-not-computed": [(_MOD_OPS, "_MOD_OPS = (tirx.FloorDiv, tirx.FloorMod)")],
    "blind5-bf16-host-legalize-tirx-pipeline-only": [
        (_PIPELINES, 'PIPELINES = ("tvm.tirx.compilation_pipeline",)')
    ],
    "blind5-bf16-params-not-remapped": [_NO_PARAMS],
    "blind5-bf16-minmax-not-rejected": [("    tirx.Min,\n    tirx.Max,\n", "")],
    "blind5-bf16-reinterpret-operand-not-rounded": [(_KEEP_TYPE, "    return value")],
}
