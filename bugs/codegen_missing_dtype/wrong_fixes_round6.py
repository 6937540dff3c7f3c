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
"""Blind round 6: wrong fixes of the WebGPU/Metal missing-type ValueError, each the reference
fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

from bugs.codegen_missing_dtype.wrong_fixes_round5 import EDITS as ROUND5

WRONG_FIXES = {
    "blind6-cmd-first-func-only": "the search for the missing type stops after the module's "
    "first function: a second kernel's float64 stays an InternalError",
    "blind6-cmd-metal-int64-lacking": "metal_lacks lists integer widths 1, 8, 16, 32 only: an "
    "int64 buffer (which Metal has) is named instead of the float64 that failed",
    "blind6-cmd-webgpu-uint32-arg": "webgpu_cannot_pass accepts int32 and float32 only: a uint32 "
    "kernel argument is named instead of the type that failed",
    "blind6-cmd-lanes-after-scalar": "webgpu_lacks tests a float's width before the vector lanes: "
    "a float32x8 is found representable and the InternalError stays",
    "blind6-cmd-webgpu-body-skipped": "for webgpu only the parameters are searched, not the body: "
    "a float64 computed inside the kernel stays an InternalError",
    "blind6-cmd-scalars-first": "webgpu's scalar arguments are searched before the buffers: the "
    "message names an argument, not the buffer type the code generator stopped at",
}

# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind6-cmd-first-func-only": [
        ('{dtype}"\n            continue', '{dtype}"\n            return None'),
        (
            "return _webgpu_message(dtype)\n    return None",
            "return _webgpu_message(dtype)\n        return None\n    return None",
        ),
    ],
    "blind6-cmd-metal-int64-lacking": [("(1, 8, 16, 32, 64)", "(1, 8, 16, 32)")],
    "blind6-cmd-webgpu-uint32-arg": [('("int32", "uint32", "float32")', '("int32", "float32")')],
    "blind6-cmd-lanes-after-scalar": ROUND5["blind5-webgpu-element-before-lanes"],
    "blind6-cmd-webgpu-body-skipped": [
        (
            "body = _body_dtypes(func)\n",
            'body = _body_dtypes(func) if target == "metal" else []\n',
        )
    ],
    "blind6-cmd-scalars-first": [
        (
            "        for dtype in buffers:\n"
            "            if webgpu_lacks(dtype):\n"
            "                return _webgpu_message(dtype)\n",
            "",
        ),
        (
            'are i32, u32 or f32"\n                )\n',
            'are i32, u32 or f32"\n                )\n'
            "        for dtype in buffers:\n"
            "            if webgpu_lacks(dtype):\n"
            "                return _webgpu_message(dtype)\n",
        ),
    ],
}
