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
reference_fixes/bfloat16_scalar.py.

Each replaces one step of the reference fix (B1's bound value, B2's decode, B3's constants,
casts, variables, parameters or arithmetic) and then installs it. What tells each apart from
the reference fix (tests/proof/test_bfloat16_scalar.py):

* value-not-visited: ``y: T.let[T.bfloat16] = x * T.Cast("bfloat16", n) + T.bfloat16(0.5)``
  binds ``bf16tof32(<the bfloat16 arithmetic>)``, which BF16StorageLegalize then computes
  rounded at each step (test_compute_legalize_binds_float32[x4]);
* decoded-through-float16: the argument 70000.0 reads as inf (the llvm run, the OpenCL run);
* narrow-truncates: ``T.Cast("bfloat16", n)`` loses its rounding bias; the argument
  1.01171875 reads as 1.0078125 instead of 1.015625 (test_storage_legalize_scalars, runs);
* widen-as-integer: ``T.Cast("float32", x)`` converts the bits as an integer (16256.0 for
  1.0) (test_storage_legalize_scalars);
* constant-truncated: ``T.bfloat16(1/3)`` is 0x3EAA instead of 0x3EAB
  (test_storage_legalize_constant_bits[1/3, 1.01171875, ...]);
* compiler-rt-bits: a constant rule through compiler-rt's (as relax's utils.h does:
  ``__truncXfYf2__``): ``T.bfloat16(0.0)`` is 0x0040 (about 5.9e-39), a float32 denormal gets
  the implicit bit (test_storage_legalize_constant_bits[0.0, -0.0, 1e-40, -3e-39]);
* scalar-lanes: a bfloat16x4 variable becomes a uint16 scalar variable
  (test_storage_legalize_vector_scalars);
* result-truncated: bfloat16 arithmetic left by BF16ComputeLegalize is computed in float32
  but its result truncated to bfloat16, not rounded
  (test_storage_legalize_computes_bfloat16_arithmetic);
* arithmetic-left: that arithmetic is left to the mutator, which rebuilds it on the uint16
  bits: integer arithmetic on the bits (test_storage_legalize_computes_bfloat16_arithmetic);
* arithmetic-rejected: that arithmetic is rejected, as a first version of this fix did; the
  host code of a cuda function for sm_80 no longer compiles (the campaign's bfloat16-let
  sentinel, test_storage_legalize_computes_bfloat16_arithmetic);
* params-keep-bfloat16: only ``Bind``/``Let`` variables are remapped, a bfloat16 parameter
  keeps its type (test_storage_legalize_scalars).
"""

import struct

from reference_fixes import bfloat16_scalar as fix
from wrong_fixes import patched_install

WRONG_FIXES = {
    "value-not-visited": "B1 retypes the Bind's variable but promotes its value unvisited: "
    "bfloat16 arithmetic inside a T.let is left as it is",
    "decoded-through-float16": "B2 keeps the float16 decode: the argument goes through "
    "float16 (no range beyond 65504, 10 mantissa bits) before bfloat16",
    "narrow-truncates": "B3's Cast to bfloat16 truncates the float32 bits (no rounding bias)",
    "widen-as-integer": "B3's Cast from bfloat16 converts the uint16 bits as an integer "
    "instead of shifting them into a float32",
    "constant-truncated": "B3's bfloat16 constants keep the top 16 bits of the float32 "
    "(truncated, not rounded to nearest even)",
    "compiler-rt-bits": "B3's constants through compiler-rt's __truncXfYf2__ (as relax's "
    "utils.h converts bfloat16 constants): zero and float32 denormals get the implicit bit "
    "(0.0 becomes 0x0040)",
    "scalar-lanes": "B3 gives a bfloat16 vector variable a uint16 scalar type (lanes dropped)",
    "result-truncated": "B3 computes bfloat16 arithmetic left in the function in float32 and "
    "truncates the result to bfloat16 (no rounding bias)",
    "params-keep-bfloat16": "B3 remaps Bind and Let variables only: bfloat16 parameters stay",
    "arithmetic-left": "B3 lowers scalars, constants and casts but leaves bfloat16 arithmetic "
    "to the mutator, which computes it on the uint16 bits (as if BF16ComputeLegalize always "
    "ran before it)",
    "arithmetic-rejected": "B3 rejects bfloat16 arithmetic left in the function (a cuda "
    "function for sm_80, host code included) instead of computing it in float32",
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


def _widen_as_integer(mutator, cast):
    value = mutator.mutate(cast.value)
    return fix._cast(str(cast.ty), value)


def _truncated_bits(value):
    (u,) = struct.unpack("<I", struct.pack("<f", value))
    return u >> 16


def compiler_rt_bits(value):
    """compiler-rt's __truncXfYf2__<float, uint32_t, 23, uint16_t, uint16_t, 7>, bit for bit."""
    (a,) = struct.unpack("<I", struct.pack("<f", value))
    mask = 0xFFFFFFFF
    a_abs, sign = a & 0x7FFFFFFF, a & 0x80000000
    underflow, overflow = 1 << 23, 255 << 23
    if ((a_abs - underflow) & mask) < ((a_abs - overflow) & mask):
        result = a_abs >> 16
        round_bits = a_abs & 0xFFFF
        if round_bits > 0x8000:
            result += 1
        elif round_bits == 0x8000:
            result += result & 1
    elif a_abs > 0x7F800000:
        result = 0x7F80 | 0x40 | (((a_abs & 0x3FFFFF) >> 16) & 0x3F)
    elif a_abs >= overflow:
        result = 0x7F80
    else:
        shift = 1 - (a_abs >> 23)  # srcExpBias - dstExpBias - aExp + 1, both biases 127
        significand = (a & 0x7FFFFF) | 0x800000
        sticky = 1 if (significand << (32 - shift)) & mask else 0
        denormalized = (significand >> shift) | sticky
        result = denormalized >> 16
        round_bits = denormalized & 0xFFFF
        if round_bits > 0x8000:
            result += 1
        elif round_bits == 0x8000:
            result += result & 1
    return (result | (sign >> 16)) & 0xFFFF


def _scalar_var(var):
    return fix.ir.Var(var.name, "uint16")


def _truncated_result(node):
    result = type(node)(fix.bf16_to_f32(node.a), fix.bf16_to_f32(node.b))
    return _truncating_f32_to_bf16(result) if fix._is_bf16(node.ty) else result


def _on_the_bits(node, mutator):
    # what StmtExprMutator does with the operation: rebuilt on its operands' uint16 bits
    return type(node)(mutator.mutate(node.a), mutator.mutate(node.b))


def _rejected(node, _mutator):
    fix._reject(node, node.a.ty)


def _no_params(_func):
    return []


_PATCHES = {
    "value-not-visited": {"_bound_value": _promoted_unvisited},
    "decoded-through-float16": {"_decode_cast": _float16_decode},
    "narrow-truncates": {"f32_to_bf16": _truncating_f32_to_bf16},
    "widen-as-integer": {"_widen": _widen_as_integer},
    "constant-truncated": {"constant_bits": _truncated_bits},
    "compiler-rt-bits": {"constant_bits": compiler_rt_bits},
    "scalar-lanes": {"_storage_var": _scalar_var},
    "result-truncated": {"compute_in_float32": _truncated_result},
    "arithmetic-left": {"lower_arithmetic": _on_the_bits},
    "arithmetic-rejected": {"lower_arithmetic": _rejected},
    "params-keep-bfloat16": {"_defined_params": _no_params},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, _PATCHES[name])
