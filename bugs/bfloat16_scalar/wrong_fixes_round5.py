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
fix). Each changes one step of bugs/bfloat16_scalar/reference_fix.py."""

from bugs.bfloat16_scalar import reference_fix as fix
from harness.wrong_fixes import patched_install

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


def _ties_away(value):
    lanes = fix._lanes(value.ty)
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    u = u + fix.tirx.const(0x8000, "uint32")  # the mistake: no round-to-even term
    bits = fix._cast(fix._with_lanes("uint16", lanes), u >> fix.tirx.const(16, "uint32"))
    return fix._reinterpret(fix._with_lanes("bfloat16", lanes), bits)


def _nan_not_kept(_value, rounded):
    return rounded


def _keep_type_identity(_ty, value):
    return value


_PATCHES = {
    "blind5-bf16-ties-away": {"f32_to_bf16": _ties_away},
    "blind5-bf16-nan-not-kept": {"nan_kept": _nan_not_kept},
    "blind5-bf16-truncmod-not-computed": {
        "_MOD_OPS": (fix.tirx.FloorDiv, fix.tirx.FloorMod),
    },
    "blind5-bf16-host-legalize-tirx-pipeline-only": {
        "PIPELINES": ("tvm.tirx.compilation_pipeline",),
    },
    "blind5-bf16-params-not-remapped": {"_defined_params": lambda _func: []},
    "blind5-bf16-minmax-not-rejected": {
        "_ARITH": tuple(t for t in fix._ARITH if t not in (fix.tirx.Min, fix.tirx.Max)),
    },
    "blind5-bf16-reinterpret-operand-not-rounded": {"keep_type": _keep_type_identity},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
