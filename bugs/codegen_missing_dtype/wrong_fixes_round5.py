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
"""Blind round 5: wrong fixes of the missing-dtype refusal (WebGPU, Metal), each the reference
fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

from bugs.codegen_missing_dtype.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind5-webgpu-first-kernel-only": (
        "the WebGPU search returns None after the module's first kernel instead of going on "
        "to the next one (a type only a second kernel lacks stays an InternalError)"
    ),
    "blind5-metal-not-wrapped": (
        "only target.build.webgpu is wrapped; Metal's PrintType refusal stays InternalError"
    ),
    "blind5-webgpu-element-before-lanes": (
        "WebGPU checks the element type before the lane count, so a float32x8 vector passes "
        "as f32 and its refusal stays an InternalError"
    ),
    "blind5-metal-no-lane-limit": (
        "Metal's float rule checks the bits only, not the 2-4 lane limit: a float32x8 stays "
        "an InternalError"
    ),
    "blind5-body-vars-only": (
        "the body's types are read from its variables and buffers only, not from its "
        "expressions: a float64 cast nested in a float32 value stays an InternalError"
    ),
    "blind5-check-before-build": (
        "the types are checked before the original build instead of after it fails: an int64 "
        "kernel argument, which WebGPU narrows and compiles, is refused"
    ),
    "blind5-webgpu-signed-64-only": (
        "WebGPU refuses 64-bit integers of kDLInt only: a uint64 buffer's refusal stays an "
        "InternalError"
    ),
}

# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind5-webgpu-first-kernel-only": [
        (
            "return _webgpu_message(dtype)\n    return None",
            "return _webgpu_message(dtype)\n        return None\n    return None",
        )
    ],
    "blind5-metal-not-wrapped": FIRST["webgpu-only"],
    "blind5-webgpu-element-before-lanes": [
        (
            "    if lanes != 1 and not 2 <= lanes <= 4:\n"
            '        return "WGSL vectors have 2, 3 or 4 lanes"\n',
            "",
        ),
        (
            '"WGSL has f16 and f32 only"\n',
            '"WGSL has f16 and f32 only"\n'
            "    if lanes != 1 and not 2 <= lanes <= 4:\n"
            '        return "WGSL vectors have 2, 3 or 4 lanes"\n',
        ),
    ],
    "blind5-metal-no-lane-limit": [
        ("return not (bits in (16, 32) and fits)", "return bits not in (16, 32)")
    ],
    "blind5-body-vars-only": [
        (
            "    def visit(node):\n",
            "    def visit(node):\n"
            "        if not isinstance(node, ir.Var):\n"
            "            return WalkResult.ADVANCE\n",
        )
    ],
    "blind5-check-before-build": [
        (
            "        try:\n",
            "        message = missing_type_error(target, mod)\n"
            "        if message is not None:\n"
            "            raise ValueError(message)\n"
            "        try:\n",
        )
    ],
    "blind5-webgpu-signed-64-only": [
        (
            "    if code in (_INT, _UINT):  # a bool vector matches neither code: no such type\n"
            "        return None if bits",
            "    if code == _UINT:\n        return None\n"
            "    if code == _INT:\n        return None if bits",
        )
    ],
}
