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
"""Blind round 7 wrong fixes of the WebGPU/Metal missing-type fix (patch 0014): each turns one of
CodeGenWebGPU::PrintType's ICHECKs into an `if (...) unsupported(...)` with a wrong condition,
so that a type WGSL has is refused too (a valid program rejected with the ValueError). Each is
the reference fix's text with two steps changed (harness/wrong_fixes.py: EDITS): the wrong
condition added to ``webgpu_lacks``, and a WebGPU build that refuses what it flags before the
code generator runs."""

WRONG_FIXES = {
    "blind7-cmd-float-demorgan": (
        "the float check is `t.bits() != 16 || t.bits() != 32` (De "
        "Morgan slip): every float type, f32 included, is refused on webgpu"
    ),
    "blind7-cmd-float-f16-dropped": (
        "the float check is `t.bits() != 32`: f16 kernels are refused on webgpu"
    ),
    "blind7-cmd-lanes-off-by-one": (
        "the lanes check is `lanes < 2 || lanes >= 4`: 4-lane vectors are refused on webgpu"
    ),
    "blind7-cmd-uint-inverted": (
        "the uint branch's check is `t.bits() != 64` (the ICHECK's "
        "condition kept, not negated): u32 is refused on webgpu"
    ),
    "blind7-cmd-lanes-check-hoisted": (
        "the lanes check is hoisted out of `if (lanes != 1)`: every "
        "scalar type is refused on webgpu"
    ),
    "blind7-cmd-int-inverted": (
        "the int branch's check is `t.bits() != 64`: i32 (and every "
        "non-64-bit int) is refused on webgpu"
    ),
}


def _refusing(condition):
    """The edits of a wrong fix whose WebGPU PrintType refuses a type where ``condition`` (of
    code, bits and lanes) holds."""
    return [
        (
            "        return None  # void, bool\n",
            "        return None  # void, bool\n"
            f"    if {condition}:\n"
            '        return "WGSL has no such type"\n',
        ),
        (
            "        try:\n            return original(mod, target_obj)",
            '        message = missing_type_error(target, mod) if target == "webgpu" else None\n'
            '        if message is not None and "WGSL has no such type" in message:\n'
            "            raise ValueError(message)\n"
            "        try:\n            return original(mod, target_obj)",
        ),
    ]


EDITS = {
    "blind7-cmd-float-demorgan": _refusing("code == _FLOAT"),
    "blind7-cmd-float-f16-dropped": _refusing("code == _FLOAT and bits != 32"),
    "blind7-cmd-lanes-off-by-one": _refusing("lanes == 4"),
    "blind7-cmd-uint-inverted": _refusing("code == _UINT and bits != 64"),
    "blind7-cmd-lanes-check-hoisted": _refusing("lanes == 1"),
    "blind7-cmd-int-inverted": _refusing(
        "code == _INT and bits != 64 and not (bits == 8 and lanes == 4)"
    ),
}
