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
"""Blind round 5 wrong fixes of the reinterpret_of_constant reference fix (patch 0012), each
the reference fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

from bugs.reinterpret_of_constant.wrong_fixes_round4 import EDITS as ROUND4

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


# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind5-reinterp-float-only": [("(ir.IntImm, FLOAT_IMM)", "(FLOAT_IMM,)")],
    "blind5-reinterp-target-type-temp": [
        (
            'ir.Var("v", constant.ty), constant',
            'ir.Var("v", call.ty), ir.Cast(call.ty.dtype, constant)',
        )
    ],
    "blind5-reinterp-no-c-host": [('("target.build.c", ', "(")],
    "blind5-reinterp-stores-only": [
        ("(ir.Stmt, _with_temporaries)", "(ir.Store, _with_temporaries)")
    ],
    "blind5-reinterp-one-temp-per-type": [
        ("    bindings = []\n", "    bindings, temps = [], {}\n"),
        (
            "        var, value = temporary_for(call)\n"
            "        bindings.append(ir.Bind(var, value))\n",
            "        key = str(call.args[0].ty)\n"
            "        if key not in temps:\n"
            "            var, value = temporary_for(call)\n"
            "            bindings.append(ir.Bind(var, value))\n"
            "            temps[key] = var\n"
            "        var = temps[key]\n",
        ),
    ],
    "blind5-reinterp-scalar-targets-only": [
        (
            "and is_constant(call.args[0])",
            'and is_constant(call.args[0])\n        and "x" not in str(call.ty)',
        )
    ],
    "blind5-reinterp-first-function-only": ROUND4["blind4-first-function-only"],
    "blind5-reinterp-no-float64": [
        (
            "isinstance(expr, CONSTANTS)",
            'isinstance(expr, CONSTANTS) and str(expr.ty) in ("int32", "float32")',
        )
    ],
}
