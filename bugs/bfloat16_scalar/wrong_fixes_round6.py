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
"""Blind round 6: wrong fixes of the bfloat16 host scalar fix (one step of B1-B3 each)."""

from bugs.bfloat16_scalar import reference_fix as fix
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install
from tvm import tirx

WRONG_FIXES = {
    "blind6-bf16-ties-away": "BFloat16Bits' rounding bias is a constant 0x8000 (ties away from "
    "zero) instead of 0x7FFF plus the kept bit's lowest bit (ties to even)",
    "blind6-bf16-nan-sign-dropped": "the NaN rule builds the quiet NaN from the magnitude only: "
    "a negative NaN comes out positive",
    "blind6-bf16-int-slot-as-double": "the decode reads the int64 slot's bits as a float64 too "
    "(reinterpret, not Cast): an integer argument decodes to a denormal",
    "blind6-bf16-decode-via-float16": "the decode keeps MakePackedAPI's float16 conversion and "
    "widens that to float32: a value beyond float16's range becomes inf",
    "blind6-bf16-mod-ops-left": "%, // and floormod are not computed in float32 (only the other "
    "arithmetic): BF16StorageLegalize then rejects them",
    "blind6-bf16-const-truncated": "a constant's bits are its float32 bits shifted right 16 "
    "(truncated), not rounded to nearest even",
    "blind6-bf16-keep-type-cast": "a reinterpret's operand computed in float32 is converted back "
    "with a Cast to bfloat16, not BFloat16Bits: BF16StorageLegalize rejects the cast",
}


def _ties_away(value):
    lanes = fix._lanes(value.ty)
    u = fix._reinterpret(fix._with_lanes("uint32", lanes), value)
    u = u + tirx.const(0x8000, "uint32")
    bits = fix._cast(fix._with_lanes("uint16", lanes), u >> tirx.const(16, "uint32"))
    return fix._reinterpret(fix._with_lanes("bfloat16", lanes), bits)


def _nan_sign_dropped(value, rounded):
    lanes = fix._lanes(value.ty)
    u32 = fix._with_lanes("uint32", lanes)
    u = fix._reinterpret(u32, value)
    mag = u & tirx.const(0x7FFFFFFF, "uint32")
    is_nan = mag > tirx.const(0x7F800000, "uint32")
    quiet = fix._cast(
        fix._with_lanes("uint16", lanes),
        (mag >> tirx.const(16, "uint32")) | tirx.const(0x40, "uint32"),
    )
    return tirx.Select(is_nan, quiet, rounded)


def _int_slot_as_double(dtype, cast):
    slot = cast.value
    if str(slot.ty).startswith("int"):
        slot = tirx.reinterpret("float64", slot)
    return ir.Cast(dtype, slot)


def _via_float16(dtype, cast):
    return ir.Cast(dtype, ir.Cast("float16", cast.value))


def _const_truncated(value):
    import struct

    (u,) = struct.unpack("<I", struct.pack("<f", value))
    if (u & 0x7FFFFFFF) > 0x7F800000:
        return fix.bf16_bits(value)
    return u >> 16


def _keep_type_cast(ty, value):
    if not fix._is_bf16(ty) or fix._is_bf16(value.ty):
        return value
    return ir.Cast(str(ty), value)


PATCHES = {
    "blind6-bf16-ties-away": {"f32_to_bf16": _ties_away},
    "blind6-bf16-nan-sign-dropped": {"nan_kept": _nan_sign_dropped},
    "blind6-bf16-int-slot-as-double": {"_decode_cast": _int_slot_as_double},
    "blind6-bf16-decode-via-float16": {"_decode_cast": _via_float16},
    "blind6-bf16-mod-ops-left": {"_MOD_OPS": ()},
    "blind6-bf16-const-truncated": {"constant_bits": _const_truncated},
    "blind6-bf16-keep-type-cast": {"keep_type": _keep_type_cast},
}


def install(name):
    return patched_install(fix, PATCHES[name])
