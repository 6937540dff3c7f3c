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

Each is the reference fix (bugs/bfloat16_scalar/reference_fix.py) with one plausible mistake in
one step."""

from bugs.bfloat16_scalar import reference_fix as fix
from tvm import tirx

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


def _truncated_bits(value):
    lanes = fix._lanes(value.ty)
    if isinstance(value, tirx.FloatImm):
        import struct

        (u,) = struct.unpack("<I", struct.pack("<f", float(value.value)))
        return tirx.IntImm(fix._with_lanes("uint16", lanes), u >> 16)
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    return fix._cast(fix._with_lanes("uint16", lanes), u >> tirx.const(16, "uint32"))


def _f32_to_bf16_ties_away(value):
    lanes = fix._lanes(value.ty)
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    u = u + tirx.const(0x8000, "uint32")  # the mistake: no tie to even
    bits = fix._cast(fix._with_lanes("uint16", lanes), u >> tirx.const(16, "uint32"))
    return fix._reinterpret(fix._with_lanes("bfloat16", lanes), bits)


def _constant_ties_away(value):
    import struct

    (u,) = struct.unpack("<I", struct.pack("<f", value))
    if (u & 0x7FFFFFFF) > 0x7F800000:
        return fix.bf16_bits(value)
    return ((u + 0x8000) >> 16) & 0xFFFF


def _nan_not_kept(_value, rounded):
    return rounded


def _no_host_legalize(mod):
    return mod


def _keep_type_plain(ty, value):
    if not fix._is_bf16(ty) or fix._is_bf16(value.ty):
        return value
    return fix.f32_to_bf16(value)  # the mistake: DTypeConversion, NaN not kept


PATCHES = {
    "blind3-bits-truncate": {"bfloat16_bits": _truncated_bits},
    "blind3-ties-away": {
        "f32_to_bf16": _f32_to_bf16_ties_away,
        "constant_bits": _constant_ties_away,
    },
    "blind3-nan-not-kept": {"nan_kept": _nan_not_kept},
    "blind3-no-host-legalize": {"host_compute_legalize": _no_host_legalize},
    "blind3-convert-back-plain": {"keep_type": _keep_type_plain},
    "blind3-mod-not-promoted": {"_MOD_OPS": ()},
}
