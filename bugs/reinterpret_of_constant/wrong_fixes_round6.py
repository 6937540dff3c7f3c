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
"""Blind round 6: wrong fixes of the reinterpret-of-a-constant reference fix."""

from bugs.reinterpret_of_constant import reference_fix as fix
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-temp-of-target-type": (
        "the temporary is declared with the reinterpret's target type "
        "and the constant cast to it, not the constant's own type"
    ),
    "blind6-float-constants-only": (
        "only a FloatImm argument gets a temporary; an IntImm still takes a literal's address"
    ),
    "blind6-scalar-targets-only": (
        "only a reinterpret to a one-lane type is rewritten; uint8x4 of "
        "an int32 constant is left as is"
    ),
    "blind6-stores-only": (
        "only store statements get temporaries; a reinterpret in an if condition keeps the literal"
    ),
    "blind6-temp-with-target-lanes": (
        "the temporary takes the constant's scalar type with the "
        "target's lanes (int32x4 for a uint8x4 reinterpret)"
    ),
    "blind6-first-function-only": (
        "rewrite_module stops after the first function it changes; a second kernel is left as is"
    ),
    "blind6-no-c-host": (
        "the stand-in wraps the device builds only (opencl, cuda, trn), not target.build.c"
    ),
}


def _temp_of_target_type(call):
    return ir.Var("v", call.ty), ir.Cast(str(call.ty.dtype), call.args[0])


def _float_only(call):
    return (
        isinstance(call, ir.Call)
        and isinstance(call.op, ir.Op)
        and call.op.name == fix.REINTERPRET
        and isinstance(call.ty, ir.PrimType)
        and len(call.args) == 1
        and isinstance(call.args[0], fix.FLOAT_IMM)
    )


def _stores_only(stmt):
    if not isinstance(stmt, ir.Store):
        return stmt
    return _REF_WITH(stmt)


def _temp_with_target_lanes(call):
    constant = call.args[0]
    dtype = str(constant.ty.dtype)
    lanes = call.ty.dtype.lanes
    if lanes != 1:
        dtype = f"{dtype}x{lanes}"
    return ir.Var("v", ir.PrimType(dtype)), constant


def _first_function_only(mod):
    for gvar, func in mod.functions.items():
        new = fix.rewrite_function(func)
        if not new.same_as(func):
            mod = mod.clone()
            mod.update_func(gvar, new)
            return mod
    return mod


_REF_WITH = fix._with_temporaries
_REF_IS = fix.is_value_reinterpret_of_constant


def install(name):
    if name == "blind6-temp-of-target-type":
        return patched_install(fix, {"temporary_for": _temp_of_target_type})
    if name == "blind6-float-constants-only":
        return patched_install(fix, {"is_value_reinterpret_of_constant": _float_only})
    if name == "blind6-scalar-targets-only":
        return patched_install(
            fix,
            {"is_value_reinterpret_of_constant": lambda c: _REF_IS(c) and c.ty.dtype.lanes == 1},
        )
    if name == "blind6-stores-only":
        return patched_install(fix, {"_with_temporaries": _stores_only})
    if name == "blind6-temp-with-target-lanes":
        return patched_install(fix, {"temporary_for": _temp_with_target_lanes})
    if name == "blind6-first-function-only":
        return patched_install(fix, {"rewrite_module": _first_function_only})
    if name == "blind6-no-c-host":
        return patched_install(
            fix, {"BUILDS": tuple(b for b in fix.BUILDS if b != "target.build.c")}
        )
    raise ValueError(name)
