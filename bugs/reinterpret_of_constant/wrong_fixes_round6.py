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
"""Blind round 6 wrong fixes of the reinterpret-of-a-constant reference fix, each the
reference fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

from bugs.reinterpret_of_constant.wrong_fixes_round3 import EDITS as ROUND3
from bugs.reinterpret_of_constant.wrong_fixes_round5 import EDITS as ROUND5

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


# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind6-temp-of-target-type": [
        (
            'ir.Var("v", constant.ty), constant',
            'ir.Var("v", call.ty), ir.Cast(str(call.ty.dtype), constant)',
        )
    ],
    "blind6-float-constants-only": [
        ("and is_constant(call.args[0])", "and isinstance(call.args[0], FLOAT_IMM)")
    ],
    "blind6-scalar-targets-only": [
        (
            "and is_constant(call.args[0])",
            "and is_constant(call.args[0])\n        and call.ty.dtype.lanes == 1",
        )
    ],
    "blind6-stores-only": ROUND3["blind3-stores-only"],
    "blind6-temp-with-target-lanes": [
        (
            '    return ir.Var("v", constant.ty), constant',
            "    dtype, lanes = str(constant.ty.dtype), call.ty.dtype.lanes\n"
            '    dtype = dtype if lanes == 1 else f"{dtype}x{lanes}"\n'
            '    return ir.Var("v", ir.PrimType(dtype)), constant',
        )
    ],
    "blind6-first-function-only": [
        ("updates[gvar] = new\n", "updates[gvar] = new\n            break  # the first one only\n")
    ],
    "blind6-no-c-host": ROUND5["blind5-reinterp-no-c-host"],
}
