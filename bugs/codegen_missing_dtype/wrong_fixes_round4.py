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

Each is the reference fix (reference_fix.py) with one mistake an engineer implementing
patch 0014 could make; bugs/codegen_missing_dtype/demos_round4.py (apache/tvm) and
demos_round4_tirx.py (apache/tvm-tirx) show each on a program. The reference fix serves both
lines, and so does each wrong fix.
"""

from bugs.codegen_missing_dtype import reference_fix as fix
from bugs.codegen_missing_dtype.wrong_fixes_round3 import (
    _missing_type_error,
    _webgpu_lacks_lanes_checked,
)
from harness.wrong_fixes import patched_install

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


def _no_u32(dtype):
    return dtype not in ("int32", "float32")


_WEBGPU_LACKS = fix.webgpu_lacks
_METAL_LACKS = fix.metal_lacks


def _no_f16(dtype):
    if fix._dtype(dtype)[:2] == (fix._FLOAT, 16):
        return "WGSL has f32 only"
    return _WEBGPU_LACKS(dtype)


def _metal_eight_lanes(dtype):
    code, bits, lanes = fix._dtype(dtype)
    if lanes in (5, 6, 7, 8):
        return _METAL_LACKS(str(fix._DataType(dtype).with_lanes(4)))
    return _METAL_LACKS(dtype)


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    patches = {
        "blind4-u32-not-passable": {"webgpu_cannot_pass": _no_u32},
        "blind4-scalars-before-buffers": {
            "missing_type_error": lambda target, mod: _missing_type_error(
                target, mod, scalars_first=True
            )
        },
        "blind4-type-before-lanes": {"webgpu_lacks": _webgpu_lacks_lanes_checked(last=True)},
        "blind4-f16-lacking": {"webgpu_lacks": _no_f16},
        "blind4-metal-eight-lanes": {"metal_lacks": _metal_eight_lanes},
        "blind4-webgpu-first-kernel-only": {
            "missing_type_error": lambda target, mod: _missing_type_error(
                target, mod, first_kernel_only=True
            )
        },
    }[name]
    return patched_install(fix, patches)
