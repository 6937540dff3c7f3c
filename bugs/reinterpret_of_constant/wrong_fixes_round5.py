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
"""Blind round 5: wrong fixes of the reinterpret_of_constant reference fix (patch 0012)."""

import tvm_ffi

from bugs.reinterpret_of_constant import reference_fix as fix
from harness.tvm_line import call_like, ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-reinterp-float-only": "only a FloatImm argument gets the temporary (the report's "
    "float case): reinterpret of an int32 constant still takes the address of a literal",
    "blind5-reinterp-target-type-temp": "the temporary is declared of the target type, not the "
    "constant's (the constant cast to it): `uint v = (uint)2.5f` converts the value, whose "
    "bits are then reinterpreted",
    "blind5-reinterp-no-c-host": "the change is wired into the device code generators only "
    "(OpenCL, CUDA, Trainium), not the 'c' target's host code that reaches the same branch",
    "blind5-reinterp-stores-only": "only a store's value is searched for reinterprets of "
    "constants: one in an if condition still takes the address of a literal",
    "blind5-reinterp-one-temp-per-type": "the temporary is made once per source type and "
    "statement: a second float32 constant in the statement reads the first one's bits",
    "blind5-reinterp-scalar-targets-only": "the temporary only for a target type of one lane: "
    "reinterpret to uint8x4 of an int32 constant keeps the literal's address",
    "blind5-reinterp-first-function-only": "only the first function of the module given to the "
    "build is rewritten: the second kernel keeps the literal's address",
    "blind5-reinterp-no-float64": "only the int32 and float32 literals are taken for constants "
    "printed as they are: a float64 constant keeps the literal's address",
}


def _target_type_temp(call):
    target = call.ty
    return ir.Var("v", target), ir.Cast(target.dtype, call.args[0])


def _rewrite_stores_only(func):
    if not isinstance(func, ir.PrimFunc) or not fix._contains_one(func.body):
        return func
    body = tvm_ffi.structural_map(func.body, (ir.Store, fix._with_temporaries))
    return func.with_body(body)


def _one_temp_per_type(stmt):
    if isinstance(stmt, ir.SeqStmt) or not fix._contains_one(stmt):
        return stmt
    bindings, temps = [], {}

    def on_call(call):
        if not fix.is_value_reinterpret_of_constant(call):
            return call
        key = str(call.args[0].ty)
        if key not in temps:
            var, value = fix.temporary_for(call)
            bindings.append(ir.Bind(var, value))
            temps[key] = var
        return call_like(call, [temps[key]])

    rewritten = tvm_ffi.structural_map(stmt, (ir.Call, on_call))
    return ir.SeqStmt([*bindings, rewritten])


def _scalar_targets_only(call):
    return _REFERENCE_TEST(call) and "x" not in str(call.ty)


_REFERENCE_TEST = fix.is_value_reinterpret_of_constant


def _first_function_only(mod):
    items = list(mod.functions.items())
    if not items:
        return mod
    gvar, func = items[0]
    new = fix.rewrite_function(func)
    if new.same_as(func):
        return mod
    mod = mod.clone()
    mod.update_func(gvar, new)
    return mod


def _narrow_constants(expr):
    return isinstance(expr, fix.CONSTANTS) and str(expr.ty) in ("int32", "float32")


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind5-reinterp-float-only":
        return patched_install(fix, {"CONSTANTS": (fix.FLOAT_IMM,)})
    if name == "blind5-reinterp-target-type-temp":
        return patched_install(fix, {"temporary_for": _target_type_temp})
    if name == "blind5-reinterp-no-c-host":
        builds = tuple(b for b in fix.BUILDS if b != "target.build.c")
        return patched_install(fix, {"BUILDS": builds})
    if name == "blind5-reinterp-stores-only":
        return patched_install(fix, {"rewrite_function": _rewrite_stores_only})
    if name == "blind5-reinterp-one-temp-per-type":
        return patched_install(fix, {"_with_temporaries": _one_temp_per_type})
    if name == "blind5-reinterp-scalar-targets-only":
        return patched_install(fix, {"is_value_reinterpret_of_constant": _scalar_targets_only})
    if name == "blind5-reinterp-first-function-only":
        return patched_install(fix, {"rewrite_module": _first_function_only})
    if name == "blind5-reinterp-no-float64":
        return patched_install(fix, {"is_constant": _narrow_constants})
    raise ValueError(f"unknown wrong fix {name!r}")
