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
"""Wrong fixes of the bfloat16 host scalar report: variants of
bugs/bfloat16_scalar/reference_fix.py.

Each replaces one step of the reference fix (B1's bound value, kept types or modulo, B2's
decode, B3's constants, NaN rule, variables, parameters or rejection, B4's host pass) and then
installs it. What tells each apart from the reference fix (proof/test_bfloat16_scalar.py and
the upstream tests):

* value-not-visited: a bound value is promoted unvisited: bfloat16 arithmetic inside a
  ``T.let`` is left as it is (test_compute_legalize_binds_float32, the llvm runs);
* decoded-through-float16: the argument 70000.0 reads as inf (the llvm runs);
* narrow-truncates: rounding loses its bias: 1.00390625 reads as 1.0 but 1.01171875 as
  1.0078125 (the constant bits, the runs);
* constant-truncated / compiler-rt-bits: ``T.bfloat16(1/3)`` is 0x3EAA; zero 0x0040
  (test_compute_legalize_constant_bits);
* nan-not-kept: DTypeConversion's rounding alone: a NaN whose payload is all ones reads as
  -0.0 (the NaN constant and argument);
* reinterpret-promoted: a reinterpret reads the float32 value (the reinterpret tests; a
  size mismatch later);
* modulo-left: ``%`` of bfloat16 is left to the storage pass (the modulo tests);
* scalar-lanes: a bfloat16x4 variable becomes a uint16 scalar variable
  (test_storage_legalize_scalars[4]);
* params-keep-bfloat16: only ``Bind``/``Let`` variables are remapped
  (test_storage_legalize_scalars);
* computation-lowered-on-bits: a computation left in bfloat16 is rebuilt on the uint16 bits
  instead of rejected (the rejection tests);
* no-host-pass: BF16ComputeLegalize does not run after MakePackedAPI: the host code of a cuda
  function for sm_80 keeps bfloat16 arithmetic, which the storage pass rejects (the runs for
  cuda-sm80).
"""

import struct

from bugs.bfloat16_scalar import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "value-not-visited": "B1 retypes the Bind's variable but promotes its value unvisited: "
    "bfloat16 arithmetic inside a T.let is left as it is",
    "decoded-through-float16": "B2 keeps the float16 decode: the argument goes through "
    "float16 (no range beyond 65504, 10 mantissa bits) before bfloat16",
    "narrow-truncates": "the rounding to bfloat16 truncates the float32 bits (no rounding bias)",
    "constant-truncated": "bfloat16 constants keep the top 16 bits of the float32 "
    "(truncated, not rounded to nearest even)",
    "compiler-rt-bits": "constants through compiler-rt's __truncXfYf2__ (as relax's "
    "utils.h converts bfloat16 constants): zero and float32 denormals get the implicit bit "
    "(0.0 becomes 0x0040)",
    "nan-not-kept": "the rounding to bfloat16 has no NaN case: its bias carries a NaN's "
    "payload into an infinity or a zero",
    "reinterpret-promoted": "B1 lets a reinterpret read the float32 value computed for its "
    "bfloat16 operand",
    "modulo-left": "B1 leaves bfloat16 %, // and floormod to the storage pass",
    "scalar-lanes": "B3 gives a bfloat16 vector variable a uint16 scalar type (lanes dropped)",
    "params-keep-bfloat16": "B3 remaps Bind and Let variables only: bfloat16 parameters stay",
    "computation-lowered-on-bits": "B3 lowers a computation left in bfloat16 on the uint16 "
    "bits instead of rejecting it",
    "no-host-pass": "B4 missing: BF16ComputeLegalize does not run again after MakePackedAPI, "
    "so the host code of a function whose target computes in bfloat16 is never legalized",
    "blind-host-pass-s-tir-only": "B4 in one of two pipelines: BF16ComputeLegalize runs again "
    "after MakePackedAPI in the s_tir pipeline only (tir_pipeline='tirx' keeps bfloat16 host "
    "arithmetic for a cuda sm_80 function)",
    "blind-host-pass-tirx-only": "B4 in one of two pipelines: BF16ComputeLegalize runs again "
    "after MakePackedAPI in tvm.tirx.compilation_pipeline only (the default s_tir pipeline "
    "keeps bfloat16 host arithmetic for a cuda sm_80 function)",
    "blind-floordiv-forgotten": "B1 computes % and floormod in float32 but forgets // "
    "(floordiv of bfloat16 is left to the storage pass, which rejects it)",
    "blind-truncmod-forgotten": "B1 computes // and floormod in float32 but forgets truncmod "
    "(tirx.Mod of bfloat16 is left to the storage pass, which rejects it)",
    "blind-let-rounded": "B1 rounds a computed bfloat16 T.let to bfloat16 (the alternative the "
    "description rejects): x * x bound to y reads 1.015625, not 1.01568603515625",
    "blind-decode-direct-from-float64": "B2 rounds the FFI's float64 straight to bfloat16, not "
    "through float32: 1 + 2**-8 + 2**-30 reads 1.0078125, not 1.0 (double rounding)",
    "blind-nan-sign-dropped": "BFloat16Bits' NaN rule keeps the payload but drops the sign: a "
    "-NaN argument reads +NaN",
    "blind-reject-by-result-type": "B3 rejects what has a bfloat16 type only: a comparison of "
    "bfloat16 values and a cast from bfloat16 are lowered on the uint16 bits",
    "blind-storage-vectors-kept": "B3 lowers scalar (one-lane) bfloat16 variables only: a "
    "bfloat16x2 binding stays bfloat16x2",
    "blind-keep-type-truncates": "B1's KeepType converts back by dropping the low 16 bits: a "
    "reinterpret of x + y reads the truncated bits (0x3F80 for 1.005859375, not 0x3F81)",
    "blind-runtime-ties-away": "BFloat16Bits rounds a tie away from zero (bias 0x8000) at run "
    "time: the argument 1 + 2**-8 reads 1.0078125, not 1.0",
}


def _promoted_unvisited(original, _legalized):
    """PromoteToTarget(value) of the unvisited value: the bits widened to float32."""
    return fix.bf16_to_f32(original) if fix._is_bf16(original.ty) else original


def _float16_decode(dtype, cast):
    return fix.ir.Cast(dtype, cast)


def _truncating_f32_to_bf16(value):
    lanes = fix._lanes(value.ty)
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    bits = fix._cast(fix._with_lanes("uint16", lanes), u >> fix.tirx.const(16, "uint32"))
    return fix._reinterpret(fix._with_lanes("bfloat16", lanes), bits)


def _truncated_bits(value):
    (u,) = struct.unpack("<I", struct.pack("<f", value))
    return u >> 16


def _round_half_to_even(bits):
    """The upper 16 of the 32 ``bits``, rounded to nearest, ties to even, on the lower 16."""
    result, round_bits = bits >> 16, bits & 0xFFFF
    if round_bits > 0x8000:
        result += 1
    elif round_bits == 0x8000:
        result += result & 1
    return result


def compiler_rt_bits(value):
    """compiler-rt's __truncXfYf2__<float, uint32_t, 23, uint16_t, uint16_t, 7>, bit for bit."""
    (a,) = struct.unpack("<I", struct.pack("<f", value))
    mask = 0xFFFFFFFF
    a_abs, sign = a & 0x7FFFFFFF, a & 0x80000000
    underflow, overflow = 1 << 23, 255 << 23
    if ((a_abs - underflow) & mask) < ((a_abs - overflow) & mask):
        result = _round_half_to_even(a_abs)
    elif a_abs > 0x7F800000:
        result = 0x7F80 | 0x40 | (((a_abs & 0x3FFFFF) >> 16) & 0x3F)
    elif a_abs >= overflow:
        result = 0x7F80
    else:
        shift = 1 - (a_abs >> 23)  # srcExpBias - dstExpBias - aExp + 1, both biases 127
        significand = (a & 0x7FFFFF) | 0x800000
        sticky = 1 if (significand << (32 - shift)) & mask else 0
        denormalized = (significand >> shift) | sticky
        result = _round_half_to_even(denormalized)
    return (result | (sign >> 16)) & 0xFFFF


def _scalar_var(var):
    return fix.ir.Var(var.name, "uint16")


def _no_params(_func):
    return []


def _rounded_only(_value, rounded):
    return rounded


def _promoted(_ty, value):
    return value


def _not_rejected(_expr):
    return None


def _no_host_pass(mod):
    return mod


_PATCHES = {
    "value-not-visited": {"_bound_value": _promoted_unvisited},
    "decoded-through-float16": {"_decode_cast": _float16_decode},
    "narrow-truncates": {"f32_to_bf16": _truncating_f32_to_bf16},
    "constant-truncated": {"constant_bits": _truncated_bits},
    "compiler-rt-bits": {"constant_bits": compiler_rt_bits},
    "nan-not-kept": {"nan_kept": _rounded_only},
    "reinterpret-promoted": {"keep_type": _promoted},
    "modulo-left": {"_MOD_OPS": ()},
    "scalar-lanes": {"_storage_var": _scalar_var},
    "params-keep-bfloat16": {"_defined_params": _no_params},
    "computation-lowered-on-bits": {"reject_uncomputed": _not_rejected},
    "no-host-pass": {"host_compute_legalize": _no_host_pass},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    if name in _BLIND_PATCHES:
        return patched_install(fix, _BLIND_PATCHES[name])
    return patched_install(fix, _PATCHES[name])


# ---------------------------------------------------------------- a blind reviewer's variants

# the reference fix's own, before any patch replaces them
_BLIND_BITS = fix.bfloat16_bits


def _blind_bound_value_rounded(original, legalized):
    """The bound value rounded to bfloat16 and widened back (a T.let computed in bfloat16)."""
    if not fix._is_bf16(original.ty):
        return legalized
    lanes = fix._lanes(legalized.ty)
    rounded = fix._reinterpret(fix._with_lanes("bfloat16", lanes), _BLIND_BITS(legalized))
    return fix.bf16_to_f32(rounded)


def _blind_f64_rounded_to_bf16(value):
    """A float64 ``value`` rounded to bfloat16's precision (7 fraction bits, to nearest even),
    still a float64: the float32 cast of it is exact (a NaN is kept)."""
    tirx = fix.tirx
    u = tirx.reinterpret("uint64", value)
    half = tirx.const((1 << 44) - 1, "uint64")
    odd = (u >> tirx.const(45, "uint64")) & tirx.const(1, "uint64")
    mask = tirx.const(((1 << 64) - 1) ^ ((1 << 45) - 1), "uint64")
    rounded = tirx.reinterpret("float64", (u + half + odd) & mask)
    # a NaN stays itself (as a conversion in hardware keeps it): only the rounding differs
    magnitude = u & tirx.const((1 << 63) - 1, "uint64")
    is_nan = magnitude > tirx.const(0x7FF0000000000000, "uint64")
    return tirx.Select(is_nan, value, rounded)


def _blind_decode_direct(dtype, cast):
    slot = cast.value
    if str(slot.ty) != "float64":
        slot = fix.ir.Cast("float64", slot)
    return fix.ir.Cast(dtype, _blind_f64_rounded_to_bf16(slot))


def _blind_nan_sign_dropped(value, rounded):
    tirx = fix.tirx
    lanes = fix._lanes(value.ty)
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    is_nan = (u & tirx.const(0x7FFFFFFF, "uint32")) > tirx.const(0x7F800000, "uint32")
    payload = (u >> tirx.const(16, "uint32")) & tirx.const(0x7FFF, "uint32")
    quiet = fix._cast(fix._with_lanes("uint16", lanes), payload | tirx.const(0x40, "uint32"))
    return tirx.Select(is_nan, quiet, rounded)


_BLIND_REJECT = fix.reject_uncomputed


def _blind_reject_by_result_type(expr):
    if fix._is_bf16(expr.ty):
        _BLIND_REJECT(expr)


_BLIND_STORAGE_VAR = fix._storage_var


def _blind_storage_var_one_lane(var):
    return _BLIND_STORAGE_VAR(var) if fix._lanes(var.ty) == 1 else var


def _blind_keep_type_truncates(ty, value):
    if not fix._is_bf16(ty) or fix._is_bf16(value.ty):
        return value
    tirx = fix.tirx
    lanes = fix._lanes(value.ty)
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    bits = fix._cast(fix._with_lanes("uint16", lanes), u >> tirx.const(16, "uint32"))
    return fix._reinterpret(str(ty), bits)


def _blind_f32_to_bf16_ties_away(value):
    tirx = fix.tirx
    lanes = fix._lanes(value.ty)
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    u = u + tirx.const(0x8000, "uint32")
    bits = fix._cast(fix._with_lanes("uint16", lanes), u >> tirx.const(16, "uint32"))
    return fix._reinterpret(fix._with_lanes("bfloat16", lanes), bits)


_BLIND_PATCHES = {
    "blind-host-pass-s-tir-only": {"PIPELINES": ("tvm.s_tir.pipeline",)},
    "blind-host-pass-tirx-only": {"PIPELINES": ("tvm.tirx.compilation_pipeline",)},
    "blind-floordiv-forgotten": {"_MOD_OPS": (fix.tirx.Mod, fix.tirx.FloorMod)},
    "blind-truncmod-forgotten": {"_MOD_OPS": (fix.tirx.FloorDiv, fix.tirx.FloorMod)},
    "blind-let-rounded": {"_bound_value": _blind_bound_value_rounded},
    "blind-decode-direct-from-float64": {"_decode_cast": _blind_decode_direct},
    "blind-nan-sign-dropped": {"nan_kept": _blind_nan_sign_dropped},
    "blind-reject-by-result-type": {"reject_uncomputed": _blind_reject_by_result_type},
    "blind-storage-vectors-kept": {"_storage_var": _blind_storage_var_one_lane},
    "blind-keep-type-truncates": {"keep_type": _blind_keep_type_truncates},
    "blind-runtime-ties-away": {"f32_to_bf16": _blind_f32_to_bf16_ties_away},
}
