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
"""Blind round 4: wrong fixes of the missing-dtype report (patch 0014: WebGPU and Metal refuse a
type they lack with a ValueError naming it).

Each is the text of the reference fix (reference_fix.py) with one step changed, a mistake an
engineer implementing patch 0014 could make (harness/wrong_fixes.py: EDITS);
bugs/codegen_missing_dtype/demos.py (apache/tvm) and demos_tirx.py (apache/tvm-tirx) show each
on a program. The reference fix serves both lines, and so does each wrong fix.
"""

WRONG_FIXES = {
    "blind4-u32-not-passable": "a WebGPU kernel's uint32 scalar argument is taken for one the "
    "runtime cannot pass (only i32 and f32 accepted): the error names the valid argument",
    "blind4-scalars-before-buffers": "WebGPU's types are searched scalar arguments first, then "
    "buffers: a kernel with a bad buffer type and a bad argument names the argument, not the "
    "buffer the code generator meets first",
    "blind4-type-before-lanes": "WebGPU's element type is judged before the lane count: a "
    "float32x8 vector is taken for a float32 WGSL has, the internal error stands",
    "blind4-f16-lacking": "WebGPU is taken to lack float16 (WGSL has f16): a kernel with a "
    "valid float16 buffer is refused naming float16, not its float64",
    "blind4-metal-eight-lanes": "Metal is taken to have vectors of up to 8 lanes (as OpenCL "
    "does): a float32x8 is not named, the internal error stands",
    "blind4-webgpu-first-kernel-only": "WebGPU's search stops after the module's first kernel: "
    "a type only a second kernel has leaves the internal error",
}


_BUFFERS = (
    "        for dtype in buffers:\n"
    "            if webgpu_lacks(dtype):\n"
    "                return _webgpu_message(dtype)\n"
)
_LANES = (
    "    if lanes != 1 and not 2 <= lanes <= 4:\n"
    '        return "WGSL vectors have 2, 3 or 4 lanes"\n'
)

EDITS = {
    "blind4-u32-not-passable": [
        (
            'dtype not in ("int32", "uint32", "float32")',
            'dtype not in ("int32", "float32")',
        )
    ],
    # the buffers' loop moved after the scalar arguments' one
    "blind4-scalars-before-buffers": [
        (_BUFFERS + "        for dtype in scalars:", "        for dtype in scalars:"),
        ("        for dtype in body:\n", _BUFFERS + "        for dtype in body:\n"),
    ],
    # the lanes test moved after the type rules
    "blind4-type-before-lanes": [
        (_LANES, ""),
        (
            '    return "WGSL has no such type"',
            _LANES + '    return "WGSL has no such type"',
        ),
    ],
    "blind4-f16-lacking": [
        (
            '    """Why WGSL (CodeGenWebGPU::PrintType) has no type ``dtype``, or None when it has '
            'one."""\n    code, bits, lanes = _dtype(dtype)\n',
            '    """Why WGSL (CodeGenWebGPU::PrintType) has no type ``dtype``, or None when it has '
            'one."""\n    code, bits, lanes = _dtype(dtype)\n'
            "    if (code, bits) == (_FLOAT, 16):\n"
            '        return "WGSL has f32 only"\n',
        )
    ],
    "blind4-metal-eight-lanes": [
        ("fits = lanes == 1 or 2 <= lanes <= 4", "fits = lanes == 1 or 2 <= lanes <= 8")
    ],
    "blind4-webgpu-first-kernel-only": [
        (
            "                return _webgpu_message(dtype)\n    return None",
            "                return _webgpu_message(dtype)\n"
            "        return None  # the first kernel only\n"
            "    return None",
        )
    ],
}
