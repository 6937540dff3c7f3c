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
"""Blind round 7 wrong fixes of the reinterpret-of-a-constant reference fix (patch 0012), each
the reference fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

from bugs.reinterpret_of_constant.wrong_fixes_round6 import EDITS as ROUND6

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


# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind7-float-only": ROUND6["blind6-float-constants-only"],
    "blind7-int-only": [
        ("and is_constant(call.args[0])", "and isinstance(call.args[0], ir.IntImm)")
    ],
    # ``uint v = 2.000000e+00f;``: C converts the value to the declared type
    "blind7-target-type-temp": ROUND6["blind6-temp-of-target-type"],
    "blind7-scalar-target-only": ROUND6["blind6-scalar-targets-only"],
    "blind7-32bit-only": [
        (
            "and is_constant(call.args[0])",
            "and is_constant(call.args[0])\n        and call.args[0].ty.dtype.bits == 32",
        )
    ],
    # one temporary per constant for the whole process, bound before its first use only
    "blind7-shared-temp": [
        (
            "def _with_temporaries(stmt):",
            "_CACHE = {}\n\n\ndef _with_temporaries(stmt):",
        ),
        (
            "        var, value = temporary_for(call)\n"
            "        bindings.append(ir.Bind(var, value))\n"
            "        return call_like(call, [var])",
            "        key = (str(call.args[0].ty), repr(call.args[0]))\n"
            "        if key not in _CACHE:\n"
            "            var, value = temporary_for(call)\n"
            "            _CACHE[key] = var\n"
            "            bindings.append(ir.Bind(var, value))\n"
            "        return call_like(call, [_CACHE[key]])",
        ),
        (
            "    return ir.SeqStmt([*bindings, rewritten])",
            "    return ir.SeqStmt([*bindings, rewritten]) if bindings else rewritten",
        ),
    ],
}
