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
"""Blind round 9 (blind9b): wrong fixes of the reinterpret-of-a-constant reference fix, each one
step of patch 0012's branch in CodeGenC::VisitExpr_(const CallNode*) done wrong."""

WRONG_FIXES = {
    "blind9-int-missed": "only a FloatImm argument gets a temporary, an IntImm one does not",
    "blind9-float-missed": "only an IntImm argument gets a temporary, a FloatImm one does not",
    "blind9-temp-of-target-type": "the temporary is declared of the target type (a conversion)",
    "blind9-32-bit-only": "only 32-bit constants get a temporary (float64, int64 ones do not)",
    "blind9-scalar-target-only": "only a one-lane target gets a temporary (not uint8x4 of int32)",
    "blind9-fixed-name": "the temporary has a fixed name, not a fresh one: two in one scope clash",
    "blind9-pointer-too": "a pointer reinterpret of a constant gets a temporary as well",
}

EDITS = {
    "blind9-int-missed": [("CONSTANTS = (ir.IntImm, FLOAT_IMM)", "CONSTANTS = (FLOAT_IMM,)")],
    "blind9-float-missed": [("CONSTANTS = (ir.IntImm, FLOAT_IMM)", "CONSTANTS = (ir.IntImm,)")],
    "blind9-temp-of-target-type": [
        (
            'return ir.Var("v", constant.ty), constant',
            'return ir.Var("v", call.ty), ir.Cast(str(call.ty), constant)',
        )
    ],
    "blind9-32-bit-only": [
        (
            "and is_constant(call.args[0])",
            "and is_constant(call.args[0])\n"
            "        and tvm_ffi.dtype(str(call.args[0].ty)).bits == 32",
        )
    ],
    "blind9-scalar-target-only": [
        (
            "and isinstance(call.ty, ir.PrimType)",
            "and isinstance(call.ty, ir.PrimType)\n"
            "        and tvm_ffi.dtype(str(call.ty)).lanes == 1",
        )
    ],
    "blind9-fixed-name": [
        (
            'return ir.Var("v", constant.ty), constant',
            'return _FIXED.setdefault(str(constant.ty), ir.Var("v", constant.ty)), constant',
        ),
        ("_active = [True]", "_FIXED = {}\n_active = [True]"),
    ],
    "blind9-pointer-too": [("and isinstance(call.ty, ir.PrimType)\n", "")],
}

UNSEEN = {
    "blind9-pointer-too": (
        "changes the source's text only: a pointer reinterpret prints a cast of its operand, not "
        "an address, and the temporary holds the same bits the literal has, so every kernel gets "
        "the same pointer (no launch or compile tells them apart)"
    ),
}
