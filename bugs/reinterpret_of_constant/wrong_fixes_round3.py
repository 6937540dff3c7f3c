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
"""Third blind round: wrong fixes of reinterpret_of_constant (a reinterpret of a constant).

Each is a variant of the reference fix that makes one mistake in one step of
``bugs/reinterpret_of_constant/reference_fix.py``."""

import tvm_ffi

from bugs.reinterpret_of_constant import reference_fix as fix
from bugs.reinterpret_of_constant.wrong_fixes import _only
from harness.tvm_line import call_like, ir

WRONG_FIXES = {
    "blind3-target-type-temporary": "the temporary is declared of the reinterpret's target type, "
    "not the constant's own (source) type",
    "blind3-float-constants-only": "only FloatImm arguments are stored in a temporary; an IntImm "
    "(int32) constant still prints as a literal",
    "blind3-scalar-target-only": "a reinterpret to a vector type (uint8x4 of an int32 constant) is "
    "not rewritten: only scalar target types count as values",
    "blind3-stores-only": "only store statements get temporaries; a reinterpret of a constant in "
    "an if condition (or a let value, a loop bound) is left as it was",
    "blind3-shared-temporary": "one temporary per constant for the whole function, declared before "
    "its first use only: a later statement outside that first use's block names an undeclared "
    "variable",
    "blind3-device-builds-only": "only the device build functions (opencl, cuda, trn) are wrapped; "
    "the c target's code keeps the address of a literal",
    "blind3-second-kernel": "rewrite_module stops after the first function it rewrites: a second "
    "kernel of the module keeps the address of a literal",
    "blind3-no-clone": "rewrite_module updates the module it is given in place instead of a clone: "
    "the build changes its caller's module",
}


# the wrong fixes no test can see (scripts/wrong_fixes.py does not run them; docs/proof.md
# names them)
UNSEEN = {
    "blind3-no-clone": "a step of the Python stand-in only: patch 0012 prints a temporary "
    "inside CodeGenC and rewrites no module (proof: test_fix_leaves_the_module_it_builds_alone)",
}


def _is_value_reinterpret_of_constant_scalar_only(call):
    # the mistake: a vector target type is not a "value"
    return _REFERENCE_IS_VALUE(call) and call.ty.dtype.lanes == 1


_REFERENCE_IS_VALUE = fix.is_value_reinterpret_of_constant


def _temporary_for_target_type(call):
    # the mistake: the temporary has the target type, as ``PrintSSAAssign(rhs, value,
    # target_dtype)`` would declare it in C++ (``uint v_ = 2.000000e+00f;``): C converts the
    # constant's value to that type on the assignment (modelled here by the Cast)
    constant = call.args[0]
    return ir.Var("v", call.ty), ir.Cast(call.ty, constant)


def _with_temporaries_stores_only(stmt):
    # the mistake: only a store's expressions are looked at
    if not isinstance(stmt, ir.Store) or not fix._contains_one(stmt):
        return stmt
    bindings = []

    def on_call(call):
        if not fix.is_value_reinterpret_of_constant(call):
            return call
        var, value = fix.temporary_for(call)
        bindings.append(ir.Bind(var, value))
        return call_like(call, [var])

    rewritten = tvm_ffi.structural_map(stmt, (ir.Call, on_call))
    return ir.SeqStmt([*bindings, rewritten])


def _rewrite_function_shared(func):
    if not isinstance(func, ir.PrimFunc) or not fix._contains_one(func.body):
        return func
    made = {}  # the mistake: (type, value) of a constant -> its temporary, for the whole function

    def with_temporaries(stmt):
        if isinstance(stmt, ir.SeqStmt) or not fix._contains_one(stmt):
            return stmt
        bindings = []

        def on_call(call):
            if not fix.is_value_reinterpret_of_constant(call):
                return call
            constant = call.args[0]
            key = (str(constant.ty), constant.value)
            if key not in made:  # declared before the first use only
                var, value = fix.temporary_for(call)
                made[key] = var
                bindings.append(ir.Bind(var, value))
            return call_like(call, [made[key]])

        rewritten = tvm_ffi.structural_map(stmt, (ir.Call, on_call))
        return ir.SeqStmt([*bindings, rewritten]) if bindings else rewritten

    return func.with_body(tvm_ffi.structural_map(func.body, (ir.Stmt, with_temporaries)))


def _rewrite_module_first_function(mod):
    updates = {}
    for gvar, func in mod.functions.items():
        new = fix.rewrite_function(func)
        if not new.same_as(func):
            updates[gvar] = new
            break  # the mistake: stops at the first function it rewrites
    if not updates:
        return mod
    mod = mod.clone()
    for gvar, func in updates.items():
        mod.update_func(gvar, func)
    return mod


def _rewrite_module_in_place(mod):
    updates = {}
    for gvar, func in mod.functions.items():
        new = fix.rewrite_function(func)
        if not new.same_as(func):
            updates[gvar] = new
    if not updates:
        return mod
    # the mistake: no clone, the caller's module is changed
    for gvar, func in updates.items():
        mod.update_func(gvar, func)
    return mod


PATCHES = {
    "blind3-target-type-temporary": {"temporary_for": _temporary_for_target_type},
    # the mistake: IntImm forgotten
    "blind3-float-constants-only": {"is_constant": _only((fix.FLOAT_IMM,))},
    "blind3-scalar-target-only": {
        "is_value_reinterpret_of_constant": _is_value_reinterpret_of_constant_scalar_only
    },
    "blind3-stores-only": {"_with_temporaries": _with_temporaries_stores_only},
    "blind3-shared-temporary": {"rewrite_function": _rewrite_function_shared},
    "blind3-device-builds-only": {"BUILDS": tuple(x for x in fix.BUILDS if x != "target.build.c")},
    "blind3-second-kernel": {"rewrite_module": _rewrite_module_first_function},
    "blind3-no-clone": {"rewrite_module": _rewrite_module_in_place},
}
