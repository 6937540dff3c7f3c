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

Each is the text of ``bugs/reinterpret_of_constant/reference_fix.py`` with one step changed
(harness/wrong_fixes.py: EDITS)."""

from bugs.reinterpret_of_constant.wrong_fixes import EDITS as FIRST

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


# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    # C++: ``PrintSSAAssign(rhs, value, target_dtype)`` declares ``uint v_ = 2.000000e+00f;``:
    # C converts the constant's value to that type on the assignment (modelled by the Cast)
    "blind3-target-type-temporary": [
        (
            'ir.Var("v", constant.ty), constant',
            'ir.Var("v", call.ty), ir.Cast(call.ty, constant)',
        )
    ],
    "blind3-float-constants-only": FIRST["floats-only"],
    "blind3-scalar-target-only": [
        (
            "        and is_constant(call.args[0])\n",
            "        and is_constant(call.args[0])\n        and call.ty.dtype.lanes == 1\n",
        )
    ],
    "blind3-stores-only": [
        ("if isinstance(stmt, ir.SeqStmt) or", "if not isinstance(stmt, ir.Store) or")
    ],
    "blind3-shared-temporary": [
        (
            "def _with_temporaries(stmt):",
            "_MADE = {}  # (type, value) of a constant -> its temporary, for the whole function\n"
            "\n\ndef _with_temporaries(stmt):",
        ),
        (
            "        var, value = temporary_for(call)\n"
            "        bindings.append(ir.Bind(var, value))\n"
            "        return call_like(call, [var])",
            "        constant = call.args[0]\n"
            "        key = (str(constant.ty), constant.value)\n"
            "        if key not in _MADE:  # declared before the first use only\n"
            "            var, value = temporary_for(call)\n"
            "            _MADE[key] = var\n"
            "            bindings.append(ir.Bind(var, value))\n"
            "        return call_like(call, [_MADE[key]])",
        ),
        (
            "    return ir.SeqStmt([*bindings, rewritten])",
            "    return ir.SeqStmt([*bindings, rewritten]) if bindings else rewritten",
        ),
        (
            "    body = tvm_ffi.structural_map(func.body, (ir.Stmt, _with_temporaries))",
            "    _MADE.clear()\n"
            "    body = tvm_ffi.structural_map(func.body, (ir.Stmt, _with_temporaries))",
        ),
    ],
    "blind3-device-builds-only": [('BUILDS = ("target.build.c", ', "BUILDS = (")],
    "blind3-second-kernel": [
        (
            "            updates[gvar] = new\n",
            "            updates[gvar] = new\n"
            "            break  # the mistake: stops at the first function it rewrites\n",
        )
    ],
    "blind3-no-clone": [
        (
            "    mod = mod.clone()  # the build must not change the module it is given\n",
            "",
        )
    ],
}


# the wrong fixes no test can see (scripts/wrong_fixes.py does not run them; docs/proof.md
# names them)
UNSEEN = {
    "blind3-no-clone": "a step of the Python stand-in only: patch 0012 prints a temporary "
    "inside CodeGenC and rewrites no module (proof: test_fix_leaves_the_module_it_builds_alone)",
}
