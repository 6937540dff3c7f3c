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
"""Wrong fixes of the reinterpret-of-a-constant report: variants of
bugs/reinterpret_of_constant/reference_fix.py.

Each makes one mistake a C++ change of CodeGenC's reinterpret branch could make: which
constants get a temporary, its type, which code generators, or folding the constant into a
literal of the target type with the wrong bits. All but the folding one are the reference fix's
own text with that step changed (harness/wrong_fixes.py: EDITS); the folding one replaces its
``_with_temporaries`` (PATCHES).
"""

import struct

import tvm_ffi

from bugs.reinterpret_of_constant import reference_fix as fix
from harness.tvm_line import ir

WRONG_FIXES = {
    "floats-only": "only a FloatImm argument gets a temporary: an int32 constant is still "
    "printed as a literal whose address is taken",
    "ints-only": "only an IntImm argument gets a temporary: float32 and float64 constants are "
    "still printed as literals whose address is taken",
    "target-type-temporary": "the temporary has the target type: the constant is converted "
    "to it (its value, not its bits)",
    "opencl-only": "the fix is in the OpenCL code generator, not in the CodeGenC branch that "
    "C, CUDA and Trainium share",
    "32-bit-only": "only 32-bit constants (the int32 and float32 that MarkConst marks) get a "
    "temporary: a float64 constant still does not",
    "fold-drops-sign": "the reinterpret of a constant is folded into a literal of the target "
    "type, its sign bit taken from `value < 0`: -0.0 loses it",
}

EDITS = {
    "floats-only": [("isinstance(expr, CONSTANTS)", "isinstance(expr, FLOAT_IMM)")],
    "ints-only": [("isinstance(expr, CONSTANTS)", "isinstance(expr, ir.IntImm)")],
    "target-type-temporary": [
        (
            'ir.Var("v", constant.ty), constant',
            'ir.Var("v", call.ty), ir.Cast(str(call.ty), constant)',
        )
    ],
    "opencl-only": [
        (
            'BUILDS = ("target.build.c", "target.build.opencl", "target.build.cuda", '
            '"target.build.trn")',
            'BUILDS = ("target.build.opencl",)',
        )
    ],
    "32-bit-only": [
        (
            "isinstance(expr, CONSTANTS)",
            "isinstance(expr, CONSTANTS) and expr.ty.dtype.bits <= 32",
        )
    ],
}

_FORMATS = {("float", 32): "f", ("float", 64): "d"}


def _bits_from_magnitude(constant):
    """The constant's bits, with its sign from ``value < 0`` (the mistake: -0.0 is not)."""
    ty = constant.ty
    code = "float" if isinstance(constant, fix.FLOAT_IMM) else "int"
    if code == "int":
        return constant.value % 2**ty.dtype.bits
    packed = struct.pack(f"<{_FORMATS[(code, ty.dtype.bits)]}", abs(constant.value))
    bits = int.from_bytes(packed, "little")
    return bits | (1 << (ty.dtype.bits - 1)) if constant.value < 0 else bits


def _literal_of(bits, ty):
    name = str(ty)
    if name.startswith("float"):
        form = _FORMATS[("float", ty.dtype.bits)]
        width = ty.dtype.bits // 8
        return ir.const(struct.unpack(f"<{form}", bits.to_bytes(width, "little"))[0], name)
    if name.startswith("int") and bits >= 2 ** (ty.dtype.bits - 1):
        bits -= 2**ty.dtype.bits
    return ir.const(bits, name)


def _folding(stmt):
    """Each scalar reinterpret of a 32- or 64-bit constant becomes a literal of its target
    type (vector targets keep the reference fix's temporary)."""

    def on_call(call):
        if not fix.is_value_reinterpret_of_constant(call) or call.ty.dtype.lanes != 1:
            return call
        constant = call.args[0]
        if isinstance(constant, fix.FLOAT_IMM) and constant.ty.dtype.bits not in (
            32,
            64,
        ):
            return call
        return _literal_of(_bits_from_magnitude(constant), call.ty)

    return _reference_with_temporaries(tvm_ffi.structural_map(stmt, (ir.Call, on_call)))


_reference_with_temporaries = fix._with_temporaries

PATCHES = {"fold-drops-sign": {"_with_temporaries": _folding}}
