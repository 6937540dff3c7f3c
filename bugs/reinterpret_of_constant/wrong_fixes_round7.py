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
"""Blind round 7 wrong fixes of the reinterpret-of-a-constant reference fix (patch 0012)."""

import tvm_ffi

import tvm
from bugs.reinterpret_of_constant import reference_fix as fix
from harness.tvm_line import call_like, ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind7-float-only": "only a FloatImm argument gets the temporary; an IntImm (e.g. int32 "
    "bits reinterpreted as float32) still takes the address of a literal",
    "blind7-int-only": "only an IntImm argument gets the temporary (as_const_int); a FloatImm "
    "still takes the address of a literal",
    "blind7-target-type-temp": "the temporary is declared with the target type (op->dtype) "
    "instead of the constant's own type, so the value is converted, not reinterpreted",
    "blind7-scalar-target-only": "the temporary is used only when the target type has one lane; "
    "a reinterpret of an int32 constant to uint8x4 still takes a literal's address",
    "blind7-32bit-only": "only 32-bit constants (the int32/float32 MarkConst cases) get the "
    "temporary; a float64 literal (also MarkConst) still takes a literal's address",
    "blind7-shared-temp": "one temporary per constant value is cached for the whole function "
    "and declared only at its first use, so a second use in another scope names it out of scope",
}


_ORIG = fix.is_value_reinterpret_of_constant


def _float_only(call):
    return _ORIG(call) and isinstance(call.args[0], fix.FLOAT_IMM)


def _int_only(call):
    return _ORIG(call) and isinstance(call.args[0], ir.IntImm)


def _target_type_temp(call):
    constant = call.args[0]
    # ``uint v = 2.000000e+00f;``: C converts the value to the declared type
    return ir.Var("v", call.ty), tvm.tirx.Cast(str(call.ty.dtype), constant)


def _scalar_target(call):
    return _ORIG(call) and call.ty.dtype.lanes == 1


def _bits32(call):
    return _ORIG(call) and call.args[0].ty.dtype.bits == 32


def _predicate_patch(pred):
    """The reference fix with ``pred`` deciding which reinterprets get a temporary."""
    orig = _ORIG

    def install():
        fix.is_value_reinterpret_of_constant = pred
        undo = fix.install()

        def uninstall():
            undo()
            fix.is_value_reinterpret_of_constant = orig

        return uninstall

    return install


_CACHE = {}


def _shared_with_temporaries(stmt):
    """``_with_temporaries`` with one temporary per constant value for the whole function,
    bound only before the first statement that uses it."""
    if isinstance(stmt, ir.SeqStmt) or not fix._contains_one(stmt):
        return stmt
    bindings = []

    def on_call(call):
        if not fix.is_value_reinterpret_of_constant(call):
            return call
        key = (str(call.args[0].ty), repr(call.args[0]))
        if key not in _CACHE:
            var, value = fix.temporary_for(call)
            _CACHE[key] = var
            bindings.append(ir.Bind(var, value))
        return call_like(call, [_CACHE[key]])

    rewritten = tvm_ffi.structural_map(stmt, (ir.Call, on_call))
    return ir.SeqStmt([*bindings, rewritten]) if bindings else rewritten


def install(name):
    if name == "blind7-target-type-temp":
        return patched_install(fix, {"temporary_for": _target_type_temp})
    if name == "blind7-shared-temp":
        return patched_install(fix, {"_with_temporaries": _shared_with_temporaries})
    preds = {
        "blind7-float-only": _float_only,
        "blind7-int-only": _int_only,
        "blind7-scalar-target-only": _scalar_target,
        "blind7-32bit-only": _bits32,
    }
    if name not in preds:
        raise KeyError(name)
    return _predicate_patch(preds[name])()
