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
"""Wrong fixes of the bfloat16 host scalar report (blind round 2): each one small mistake in
one step of bugs/bfloat16_scalar/reference_fix.py (B1-B4 of the C++ patch 0009)."""

import struct

import tvm_ffi

from bugs.bfloat16_scalar import reference_fix as fix
from harness.tvm_line import function_like, ir

WRONG_FIXES = {
    "blind2-nan-not-kept": (
        "BFloat16Bits is DTypeConversion's rounding alone, without the quiet-NaN rule: a NaN "
        "whose payload is all ones is carried by the rounding bias into -0.0"
    ),
    "blind2-const-ties-away": (
        "BFloat16Bits of a constant rounds half away from zero ((u + 0x8000) >> 16) instead "
        "of to nearest even: a float32 tie rounds up"
    ),
    "blind2-float-slot-only": (
        "MakePackedAPI decodes a bfloat16 argument from the FFI's float64 slot whatever its "
        "type index: an int argument's bits are read as a double"
    ),
    "blind2-decode-truncates": (
        "BFloat16Bits of a computed value truncates the float32 bits (u >> 16) instead of "
        "rounding them to nearest even"
    ),
    "blind2-convertback-plain": (
        "BF16ComputeLegalizer does not override ConvertBack: a reinterpret's operand computed "
        "in float32 goes back through DTypeConversion, without BFloat16Bits' NaN rule"
    ),
    "blind2-retype-kept-values": (
        "a Bind's bfloat16 variable is retyped to float32 whatever its value, also when the "
        "value stays bfloat16 (a reinterpret, a variable, a load)"
    ),
    "blind2-mod-forgotten": (
        "ComputeLegalizer gets visitors for // and floormod but not for % (Mod), which stays "
        "in bfloat16 and is rejected by BF16StorageLegalize"
    ),
    "blind2-legalize-before-packed-api": (
        "the pipelines run the second BF16ComputeLegalize just before MakePackedAPI, where a "
        "host function still has its device target, instead of after it"
    ),
}


# --------------------------------------------------------------------- nan-not-kept


def _nan_dropped(_value, rounded):
    return rounded


# --------------------------------------------------------------------- const-ties-away


def _constant_bits_ties_away(value):
    (u,) = struct.unpack("<I", struct.pack("<f", value))
    if (u & 0x7FFFFFFF) > 0x7F800000:  # NaN: as the reference
        return fix.bf16_bits(value)
    return ((u + 0x8000) >> 16) & 0xFFFF


# --------------------------------------------------------------------- float-slot-only


def _decode_float_slot(dtype, cast):
    slot = cast.value
    if str(slot.ty) != "float64":  # the int64 slot read as the union's double
        slot = fix._reinterpret("float64", slot)
    return ir.Cast(dtype, slot)


# --------------------------------------------------------------------- decode-truncates


def _bits_truncated(value):
    lanes = fix._lanes(value.ty)
    u16 = fix._with_lanes("uint16", lanes)
    if isinstance(value, fix.tirx.FloatImm):
        return fix.tirx.IntImm(u16, fix.constant_bits(float(value.value)))
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    truncated = fix._cast(u16, u >> fix.tirx.const(16, "uint32"))
    return fix.nan_kept(value, truncated)


# --------------------------------------------------------------------- convertback-plain


def _keep_type_plain(ty, value):
    if not fix._is_bf16(ty) or fix._is_bf16(value.ty):
        return value
    return fix.f32_to_bf16(value)  # DTypeConversion(value, bfloat16)


# --------------------------------------------------------------------- retype-kept-values


def _mark_retype_all(func):
    """The reference's _mark, but every Bind of a bfloat16 variable is treated as computed
    (its variable retyped to float32), also when its value stays bfloat16."""
    tirx = fix.tirx
    computed, kept, ops = {}, [], {}
    uses = {}

    def stays_bf16(_value):
        return False  # the mistake: the value's kind is not asked

    def on_bind(bind):
        if not fix._bind_needs_fix(bind):
            return bind
        var, value = bind.var, bind.value
        if stays_bf16(value):
            kept.append(var)
            return tirx.Evaluate(
                ir.Call(ir.Op.get("tirx.reinterpret"), [value], ret_ty=str(value.ty))
            )
        new_var = fix._compute_var(var) if fix._is_bf16(var.ty) else var
        if not new_var.same_as(var):
            uses[fix._key(var)] = ir.Cast(str(var.ty), new_var)
        name = f"__bfloat16_scalar_fix_bind_{next(fix._counter)}"
        call = tirx.call_extern("int32", name, value)
        computed[call.args[0].__chandle__()] = (var, new_var, value)
        return tirx.Evaluate(call)

    def on_op(node):
        if not fix._is_bf16(node.a.ty):
            return node
        name = f"__bfloat16_scalar_fix_op_{next(fix._counter)}"
        call = tirx.call_extern(str(node.ty), name, node.a, node.b)
        ops[call.args[0].__chandle__()] = type(node)
        return call

    fix._check_input(func.body)
    body = tvm_ffi.structural_map(func.body, (tirx.Bind, on_bind), order="pre")
    body = fix._replace_vars(body, uses)
    if fix._MOD_OPS:
        body = tvm_ffi.structural_map(body, (fix._MOD_OPS, on_op))
    marks = (computed, kept, ops)
    if body.same_as(func.body):
        return func, marks
    return function_like(func, func.params, body), marks


# --------------------------------------------------------------------- legalize-before-packed-api


def _make_packed_api_after_legalize(inner, mod, in_pipeline=False):
    if in_pipeline:
        mod = fix.host_compute_legalize(mod)  # before MakePackedAPI: the device target still
    return fix._make_packed_api(inner, mod)


PATCHES = {
    "blind2-nan-not-kept": {"nan_kept": _nan_dropped},
    "blind2-const-ties-away": {"constant_bits": _constant_bits_ties_away},
    "blind2-float-slot-only": {"_decode_cast": _decode_float_slot},
    "blind2-decode-truncates": {"bfloat16_bits": _bits_truncated},
    "blind2-convertback-plain": {"keep_type": _keep_type_plain},
    "blind2-retype-kept-values": {"_mark": _mark_retype_all},
    "blind2-mod-forgotten": {"_MOD_OPS": (fix.tirx.FloorDiv, fix.tirx.FloorMod)},
    "blind2-legalize-before-packed-api": {"make_packed_api": _make_packed_api_after_legalize},
}
