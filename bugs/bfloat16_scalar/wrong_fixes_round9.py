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
"""Blind round 9 (blind9c): wrong fixes of patch 0009 (bfloat16 host scalars), each the
reference fix's text with one step of the C++ changed."""

WRONG_FIXES = {
    "blind9-nan-not-kept": (
        "BFloat16Bits of a non-constant is DTypeConversion's rounding alone: no Select keeps "
        "a NaN a quiet NaN"
    ),
    "blind9-constant-tie-away": (
        "BFloat16Bits of a constant rounds a tie away from zero ((u + 0x8000) >> 16), not to "
        "nearest even"
    ),
    "blind9-let-keeps-old-type": (
        "the Bind visitor still copies its variable with the old value's type "
        "(prim_value.value().ty()): a computed bfloat16 T.let stays bfloat16"
    ),
    "blind9-reinterpret-not-kept": (
        "KeepType is left out of the reinterpret visitor: a bfloat16 operand computed in "
        "float32 is reinterpreted as float32's bits"
    ),
    "blind9-cast-from-bf16-accepted": (
        "BF16StorageLegalize's Cast visitor rejects a cast to bfloat16 only: a cast from a "
        "bfloat16 scalar is lowered as a cast of its uint16 bits"
    ),
    "blind9-params-not-remapped": (
        "BF16StorageLegalize remaps the scalar bindings' definitions but not the parameters': "
        "a bfloat16 parameter stays bfloat16"
    ),
}

EDITS = {
    "blind9-nan-not-kept": [
        ("    return tirx.Select(is_nan, quiet, rounded)", "    return rounded")
    ],
    "blind9-constant-tie-away": [
        (
            "        if rest > 0x8000 or (rest == 0x8000 and bits & 1):",
            "        if rest >= 0x8000:",
        )
    ],
    "blind9-let-keeps-old-type": [
        (
            '    return ir.Var(var.name, _with_lanes("float32", _lanes(var.ty)))',
            "    return ir.Var(var.name, str(var.ty))",
        )
    ],
    "blind9-reinterpret-not-kept": [
        ("    if not _is_bf16(ty) or _is_bf16(value.ty):", "    if True:")
    ],
    "blind9-cast-from-bf16-accepted": [
        (
            "        if _is_bf16(cast.ty) or _is_bf16(cast.value.ty):",
            "        if _is_bf16(cast.ty):",
        )
    ],
    "blind9-params-not-remapped": [("    return func.params", "    return []")],
}
