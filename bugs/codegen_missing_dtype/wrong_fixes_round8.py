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
"""Blind round 8 (blind8b): wrong fixes of the missing-dtype codegen report, each the reference
fix's text with one step of patch 0014 (the sites of CodeGenWebGPU and CodeGenMetal that now
throw ValueError) changed."""

WRONG_FIXES = {
    "blind8-metal-left-internal": "only CodeGenWebGPU is changed: CodeGenMetal::PrintType's final "
    "throw stays an InternalError (float64 on Metal)",
    "blind8-webgpu-arg-left-internal": "AddFunction's throw for a kernel scalar argument other "
    "than i32/u32/f32 is left an InternalError; only PrintType and the FloatImm printer change",
    "blind8-float-constant-left-internal": "VisitExpr_(FloatImmNode) keeps its InternalError: a "
    "float64 constant printed without its type (a call argument) is still an internal error",
    "blind8-webgpu-u64-left-internal": "the int branch of PrintType is converted but its uint "
    "sibling keeps TVM_FFI_ICHECK(t.bits() != 64): uint64 stays an internal error",
    "blind8-webgpu-lanes-left-internal": "the vector lane ICHECK (lanes in {2, 3, 4}) is left as "
    "it was: an 8-lane vector on WebGPU still stops at an internal check",
    "blind8-webgpu-arg-type-error": "AddFunction's refusal of a kernel argument type throws "
    "TypeError (it is an argument's type) where the patch throws ValueError",
    "blind8-webgpu-float-or": "the float check is written t.bits() != 16 || t.bits() != 32 "
    "(always true): every float type, f32 and f16 included, is refused on WebGPU",
}

EDITS = {
    "blind8-metal-left-internal": [
        ('TARGETS = ("webgpu", "metal")', 'TARGETS = ("webgpu",)'),
    ],
    "blind8-webgpu-arg-left-internal": [
        (
            "            if webgpu_cannot_pass(dtype):\n"
            "                return (\n"
            '                    "CodeGenWebGPU: the webgpu target cannot pass a kernel argument '
            'of type "\n'
            '                    f"{dtype}: its scalar arguments are i32, u32 or f32"\n'
            "                )\n",
            "            if webgpu_cannot_pass(dtype):\n"
            "                return None  # AddFunction keeps its InternalError\n",
        ),
    ],
    "blind8-float-constant-left-internal": [
        (
            "            if message is None:\n                raise\n",
            '            if message is None or "Unsupported floating point bits" in str(err):\n'
            "                raise\n",
        ),
    ],
    "blind8-webgpu-u64-left-internal": [
        (
            "    if code in (_INT, _UINT):  # a bool vector matches neither code: no such type\n"
            '        return None if bits != 64 else "WGSL has no 64-bit integers"\n',
            "    if code == _UINT:\n"
            "        return None  # the u64 ICHECK is kept\n"
            "    if code == _INT:\n"
            '        return None if bits != 64 else "WGSL has no 64-bit integers"\n',
        ),
    ],
    "blind8-webgpu-lanes-left-internal": [
        (
            "    if lanes != 1 and not 2 <= lanes <= 4:\n"
            '        return "WGSL vectors have 2, 3 or 4 lanes"\n',
            "    if lanes != 1 and not 2 <= lanes <= 4:\n"
            "        return None  # the ICHECK is kept\n",
        ),
    ],
    "blind8-webgpu-arg-type-error": [
        (
            "            raise ValueError(message) from None\n",
            "            kind = ValueError\n"
            '            if "cannot pass a kernel argument" in message:\n'
            "                kind = TypeError\n"
            "            raise kind(message) from None\n",
        ),
    ],
    "blind8-webgpu-float-or": [
        (
            '        return None if bits in (16, 32) else "WGSL has f16 and f32 only"\n',
            '        return "WGSL has f16 and f32 only"  # bits != 16 || bits != 32\n',
        ),
        (
            "        try:\n            return original(mod, target_obj)\n",
            "        try:\n"
            '            if target == "webgpu" and any(\n'
            "                _dtype(d)[0] == _FLOAT\n"
            "                for _, f in mod.functions.items()\n"
            "                if _built(f)\n"
            "                for d in [\n"
            "                    *(_prim_dtype(p.ty) or 'void' for p in f.params),\n"
            "                    *_body_dtypes(f),\n"
            "                ]\n"
            "            ):\n"
            '                raise INTERNAL[0]("PrintType refuses every float")\n'
            "            return original(mod, target_obj)\n",
        ),
    ],
}
