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
"""Wrong fixes of the bfloat16 host scalar report: each is the text of
bugs/bfloat16_scalar/reference_fix.py with one step changed (harness/wrong_fixes.py: EDITS):
B1's bound value, kept types or modulo, B2's decode, B3's constants, NaN rule, variables,
parameters or rejection, B4's host pass. ``compiler-rt-bits`` alone replaces a function
(``constant_bits``) with a model of compiler-rt's conversion (PATCHES). What tells each apart
from the reference fix (proof/test_bfloat16_scalar.py and the upstream tests):

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


PATCHES = {"compiler-rt-bits": {"constant_bits": compiler_rt_bits}}

# the steps the edits change (each found once in the reference fix)
_BOUND_VALUE = "    return legalized\n"
_DECODE = "    return ir.Cast(dtype, cast.value)"
_BIAS = "    u = u + bias\n"
_CONSTANT = "    return bf16_bits(value)"
_NAN_SELECT = "    return tirx.Select(is_nan, quiet, rounded)"
_KEEP_TYPE = "    return _reinterpret(str(ty), bfloat16_bits(value))"
_MOD_OPS = "_MOD_OPS = (tirx.Mod, tirx.FloorDiv, tirx.FloorMod)"
_STORAGE_VAR = "    return ir.Var(var.name, _uint16(var.ty))"
_REJECT = '    raise ValueError(\n        f"Cannot lower'
_PIPELINES = 'PIPELINES = ("tvm.s_tir.pipeline", "tvm.tirx.compilation_pipeline")'
_QUIET = '(u >> tirx.const(16, "uint32")) | tirx.const(0x40, "uint32")'
_ROUNDED_BITS = "    return nan_kept(value, _reinterpret(u16, f32_to_bf16(value)))"
# the non-constant branch of BFloat16Bits with the top 16 bits of the float32, NaN kept
_TRUNCATED_BITS = (
    '    u = _reinterpret(_with_lanes("uint32", lanes), value)\n'
    '    return nan_kept(value, _cast(u16, u >> tirx.const(16, "uint32")))  # truncated'
)
_TIES_AWAY = '    u = u + tirx.const(0x8000, "uint32")  # a tie rounds away from zero\n'
_NAN_DROPPED = "    return rounded  # no quiet-NaN select"
_CONVERT_BACK_PLAIN = "    return f32_to_bf16(value)  # DTypeConversion: NaN not kept"
_NO_HOST_PASS = (
    '    return compute_legalize(_ORIGINAL["BF16ComputeLegalize"](), mod)',
    "    return mod  # no BF16ComputeLegalize after MakePackedAPI",
)
_NO_PARAMS = ("    return func.params\n", "    return []  # the parameters keep bfloat16\n")
_NOT_REJECTED = (_REJECT, "    return None  # lowered on the bits\n" + _REJECT)

EDITS = {
    "value-not-visited": [
        (
            _BOUND_VALUE,
            "    return bf16_to_f32(_original) if _is_bf16(_original.ty) else _original\n",
        )
    ],
    "decoded-through-float16": [(_DECODE, "    return ir.Cast(dtype, cast)")],
    "narrow-truncates": [(_BIAS, "")],
    "constant-truncated": [
        (_CONSTANT, '    return struct.unpack("<I", struct.pack("<f", value))[0] >> 16')
    ],
    "nan-not-kept": [(_NAN_SELECT, _NAN_DROPPED)],
    "reinterpret-promoted": [(_KEEP_TYPE, "    return value")],
    "modulo-left": [(_MOD_OPS, "_MOD_OPS = ()")],
    "scalar-lanes": [(_STORAGE_VAR, '    return ir.Var(var.name, "uint16")')],
    "params-keep-bfloat16": [_NO_PARAMS],
    "computation-lowered-on-bits": [_NOT_REJECTED],
    "no-host-pass": [_NO_HOST_PASS],
    "blind-host-pass-s-tir-only": [(_PIPELINES, 'PIPELINES = ("tvm.s_tir.pipeline",)')],
    "blind-host-pass-tirx-only": [(_PIPELINES, 'PIPELINES = ("tvm.tirx.compilation_pipeline",)')],
    "blind-floordiv-forgotten": [(_MOD_OPS, "_MOD_OPS = (tirx.Mod, tirx.FloorMod)")],
    "blind-truncmod-forgotten": [(_MOD_OPS, "_MOD_OPS = (tirx.FloorDiv, tirx.FloorMod)")],
    "blind-let-rounded": [
        (
            _BOUND_VALUE,
            "    if not _is_bf16(_original.ty):\n"
            "        return legalized\n"
            "    lanes = _lanes(legalized.ty)  # rounded to bfloat16 and widened back\n"
            '    rounded = _reinterpret(_with_lanes("bfloat16", lanes), bfloat16_bits(legalized))\n'
            "    return bf16_to_f32(rounded)\n",
        )
    ],
    "blind-decode-direct-from-float64": [
        (
            _DECODE,
            "    slot = cast.value\n"
            '    if str(slot.ty) != "float64":\n'
            '        slot = ir.Cast("float64", slot)\n'
            "    # rounded to bfloat16's precision (7 fraction bits, to nearest even) in float64\n"
            '    u = tirx.reinterpret("uint64", slot)\n'
            '    half = tirx.const((1 << 44) - 1, "uint64")\n'
            '    odd = (u >> tirx.const(45, "uint64")) & tirx.const(1, "uint64")\n'
            '    mask = tirx.const(((1 << 64) - 1) ^ ((1 << 45) - 1), "uint64")\n'
            '    rounded = tirx.reinterpret("float64", (u + half + odd) & mask)\n'
            '    magnitude = u & tirx.const((1 << 63) - 1, "uint64")\n'
            '    is_nan = magnitude > tirx.const(0x7FF0000000000000, "uint64")\n'
            "    return ir.Cast(dtype, tirx.Select(is_nan, slot, rounded))",
        )
    ],
    "blind-nan-sign-dropped": [
        (
            _QUIET,
            '((u >> tirx.const(16, "uint32")) & tirx.const(0x7FFF, "uint32"))'
            ' | tirx.const(0x40, "uint32")',
        )
    ],
    "blind-reject-by-result-type": [
        (
            _REJECT,
            "    if not _is_bf16(expr.ty):\n"
            "        return None  # only a bfloat16 result is rejected\n" + _REJECT,
        )
    ],
    "blind-storage-vectors-kept": [
        (_STORAGE_VAR, _STORAGE_VAR + " if _lanes(var.ty) == 1 else var")
    ],
    "blind-keep-type-truncates": [
        (
            _KEEP_TYPE,
            "    lanes = _lanes(value.ty)\n"
            '    u = _reinterpret(_with_lanes("uint32", lanes), value)\n'
            '    bits = _cast(_with_lanes("uint16", lanes), u >> tirx.const(16, "uint32"))\n'
            "    return _reinterpret(str(ty), bits)  # truncated",
        )
    ],
    "blind-runtime-ties-away": [(_BIAS, _TIES_AWAY)],
}
