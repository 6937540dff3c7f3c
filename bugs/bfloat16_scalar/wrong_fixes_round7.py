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
"""Blind round 7 wrong fixes of the bfloat16 host scalar fix (patch 0009)."""

import struct

from bugs.bfloat16_scalar import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind7-bf16-const-halfup": (
        "BFloat16Bits' constant branch rounds a tie up (bias 0x8000, no "
        "even test) instead of to nearest even"
    ),
    "blind7-bf16-const-no-nan": (
        "BFloat16Bits' constant branch leaves out the NaN case: the bias "
        "carries an all-ones NaN payload into -0.0"
    ),
    "blind7-bf16-inf-is-nan": (
        "BFloat16Bits' NaN test is >= 0x7F800000: an infinity becomes a quiet NaN"
    ),
    "blind7-bf16-truncate": (
        "BFloat16Bits' non-constant branch takes the top 16 bits (truncation) "
        "instead of DTypeConversion's rounding"
    ),
    "blind7-bf16-nan-drops-sign": (
        "BFloat16Bits' quiet NaN is built from the magnitude (u & "
        "0x7FFFFFFF) >> 16: a negative NaN loses its sign"
    ),
    "blind7-bf16-storage-accepts": (
        "BF16StorageLegalize lowers a computation left in bfloat16 to "
        "its bits instead of raising the ValueError"
    ),
    "blind7-bf16-vector-var-scalar": (
        "BF16StorageLegalize remaps a bfloat16 variable to a scalar uint16 whatever its lanes"
    ),
}


def _const_halfup(value):
    (u,) = struct.unpack("<I", struct.pack("<f", value))
    if (u & 0x7FFFFFFF) > 0x7F800000:
        return ((u >> 16) | 0x40) & 0xFFFF
    return ((u + 0x8000) >> 16) & 0xFFFF


def _const_no_nan(value):
    (u,) = struct.unpack("<I", struct.pack("<f", value))
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


def _nan_kept(ge=False, signed=True, truncate=False):
    tirx = fix.tirx

    def nan_kept(value, rounded):
        lanes = fix._lanes(value.ty)
        u32 = fix._with_lanes("uint32", lanes)
        u16 = fix._with_lanes("uint16", lanes)
        u = fix._reinterpret(u32, value)
        mag = u & tirx.const(0x7FFFFFFF, "uint32")
        top = tirx.const(0x7F800000, "uint32")
        is_nan = mag >= top if ge else mag > top
        src = u if signed else mag
        quiet = fix._cast(u16, (src >> tirx.const(16, "uint32")) | tirx.const(0x40, "uint32"))
        if truncate:
            rounded = fix._cast(u16, u >> tirx.const(16, "uint32"))
        return tirx.Select(is_nan, quiet, rounded)

    return nan_kept


def _accept(expr):
    return None


def _storage_var_scalar(var):
    return fix.ir.Var(var.name, "uint16")


PATCHES = {
    "blind7-bf16-const-halfup": {"constant_bits": _const_halfup},
    "blind7-bf16-const-no-nan": {"constant_bits": _const_no_nan},
    "blind7-bf16-inf-is-nan": {"nan_kept": _nan_kept(ge=True)},
    "blind7-bf16-truncate": {"nan_kept": _nan_kept(truncate=True)},
    "blind7-bf16-nan-drops-sign": {"nan_kept": _nan_kept(signed=False)},
    "blind7-bf16-storage-accepts": {"reject_uncomputed": _accept},
    "blind7-bf16-vector-var-scalar": {"_storage_var": _storage_var_scalar},
}


def install(name):
    return patched_install(fix, PATCHES[name])
