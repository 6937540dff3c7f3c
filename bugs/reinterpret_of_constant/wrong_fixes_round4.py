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
"""Blind round 4: wrong fixes of the reinterpret-of-a-constant report (patch 0012).

Each is the reference fix (reference_fix.py) with one mistake an engineer implementing
patch 0012 could make: its own text with that step changed (harness/wrong_fixes.py: EDITS),
except blind4-whole-value-only, a rewrite of its own (PATCHES); demos.py beside this file
shows each on a program. apache/tvm only (the reference fix is not written for tvm-tirx).
"""

import tvm
from bugs.reinterpret_of_constant import reference_fix as fix
from bugs.reinterpret_of_constant.wrong_fixes import EDITS as FIRST
from harness.tvm_line import ir
from harness.wrong_fixes import edits

WRONG_FIXES = {
    "blind4-float-only": "only a FloatImm argument goes into a temporary: an IntImm (int32, "
    "MarkConst'd too) is still printed as &(literal)",
    "blind4-temp-target-type": "the temporary is declared of the reinterpret's target type, "
    "not the constant's own type: `uint v = 2.0f` converts the value, the bits are lost",
    "blind4-stores-only": "only store statements are rewritten: a reinterpret of a constant in "
    "an if condition (or let, assert, loop bound) still takes a literal's address",
    "blind4-whole-value-only": "only a reinterpret that is a store's whole value is rewritten: "
    "one nested in another expression (an operand, an index) keeps &(literal)",
    "blind4-no-c-host": "the C host's build (target.build.c) is left out: the 'c' target's "
    "host code still takes a literal's address",
    "blind4-first-function-only": "only the module's first function is rewritten: a second "
    "kernel of the device module keeps &(literal)",
}


# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind4-float-only": [("CONSTANTS = (ir.IntImm, FLOAT_IMM)", "CONSTANTS = (FLOAT_IMM,)")],
    # C++: PrintSSAAssign(rhs, value, target_dtype): `uint v_ = 2.000000e+00f;` converts
    "blind4-temp-target-type": FIRST["target-type-temporary"],
    "blind4-stores-only": edits("reinterpret_of_constant", "blind3-stores-only"),
    "blind4-no-c-host": edits("reinterpret_of_constant", "blind3-device-builds-only"),
    "blind4-first-function-only": [
        ("in mod.functions.items():", "in list(mod.functions.items())[:1]:")
    ],
}


def _whole_value_only(stmt):
    value = getattr(stmt, "value", None)
    if not isinstance(stmt, ir.Store | ir.Bind) or not fix.is_value_reinterpret_of_constant(value):
        return stmt
    var, constant = fix.temporary_for(value)
    new_value = fix.call_like(value, [var])
    if isinstance(stmt, ir.Store):
        rewritten = tvm.tirx.BufferStore(stmt.buffer, new_value, stmt.indices)
    else:
        rewritten = ir.Bind(stmt.var, new_value)
    return ir.SeqStmt([ir.Bind(var, constant), rewritten])


PATCHES = {"blind4-whole-value-only": {"_with_temporaries": _whole_value_only}}
