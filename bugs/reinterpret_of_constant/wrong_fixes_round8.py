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
"""Blind round 8 (blind8b): wrong fixes of the reinterpret-of-a-constant report, each the
reference fix's text with one step of patch 0012 (the constant case of CodeGenC's value
reinterpret branch) changed."""

WRONG_FIXES = {
    "blind8-float-only": "only a FloatImm argument gets the temporary (as<FloatImmNode>() alone): "
    "a reinterpret of an int32 constant still takes the address of a literal",
    "blind8-int-only": "only an IntImm argument gets the temporary: a reinterpret of a float32 "
    "constant still takes the address of a literal",
    "blind8-temp-of-target-type": "the temporary is declared with the target type "
    "(PrintSSAAssign(rhs, value, target_dtype)): the constant is converted, not its bits kept",
    "blind8-scalar-target-only": "the constant case is taken only when the target type is a "
    "scalar (target_dtype.lanes() == 1): a uint8x4 of an int32 constant keeps the literal",
    "blind8-temp-cached": "the temporary is entered in the SSA cache under the constant's text: a "
    "later reinterpret of the same constant reuses it, also outside the branch that declared it",
    "blind8-opencl-only": "the constant case is added to CodeGenOpenCL's reinterpret only, not "
    "CodeGenC's: the C host target (and CUDA) still take the address of a literal",
}

EDITS = {
    "blind8-float-only": [
        ("CONSTANTS = (ir.IntImm, FLOAT_IMM)", "CONSTANTS = (FLOAT_IMM,)"),
    ],
    "blind8-int-only": [
        ("CONSTANTS = (ir.IntImm, FLOAT_IMM)", "CONSTANTS = (ir.IntImm,)"),
    ],
    "blind8-temp-of-target-type": [
        (
            '    return ir.Var("v", constant.ty), constant\n',
            '    return ir.Var("v", call.ty), ir.Cast(str(call.ty), constant)\n',
        ),
    ],
    "blind8-scalar-target-only": [
        (
            "        and isinstance(call.ty, ir.PrimType)\n",
            "        and isinstance(call.ty, ir.PrimType)\n"
            "        and tvm_ffi.dtype(str(call.ty)).lanes == 1\n",
        ),
    ],
    "blind8-temp-cached": [
        (
            '    return ir.Var("v", constant.ty), constant\n',
            "    key = (str(constant.ty), str(constant))\n"
            "    if key in _CACHED:\n"
            "        return _CACHED[key], None\n"
            '    _CACHED[key] = ir.Var("v", constant.ty)\n'
            "    return _CACHED[key], constant\n"
            "\n"
            "\n"
            "_CACHED = {}\n",
        ),
        (
            "        bindings.append(ir.Bind(var, value))\n",
            "        if value is not None:\n            bindings.append(ir.Bind(var, value))\n",
        ),
        (
            "    return ir.SeqStmt([*bindings, rewritten])\n",
            "    return ir.SeqStmt([*bindings, rewritten]) if bindings else rewritten\n",
        ),
    ],
    "blind8-opencl-only": [
        (
            'BUILDS = ("target.build.c", "target.build.opencl", "target.build.cuda", '
            '"target.build.trn")',
            'BUILDS = ("target.build.opencl",)',
        ),
    ],
}
