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
so that a type WGSL has is refused too (a valid program rejected with the ValueError)."""

from bugs.codegen_missing_dtype import reference_fix as fix
from harness.wrong_fixes import patched_install

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


_REFERENCE_LACKS = fix.webgpu_lacks


def _code(dtype):
    return fix._dtype(dtype)


RULES = {
    "blind7-cmd-float-demorgan": lambda c, b, lanes: c == fix._FLOAT,
    "blind7-cmd-float-f16-dropped": lambda c, b, lanes: c == fix._FLOAT and b != 32,
    "blind7-cmd-lanes-off-by-one": lambda c, b, lanes: lanes == 4,
    "blind7-cmd-uint-inverted": lambda c, b, lanes: c == fix._UINT and b != 64,
    "blind7-cmd-lanes-check-hoisted": lambda c, b, lanes: lanes == 1,
    "blind7-cmd-int-inverted": lambda c, b, lanes: c == fix._INT
    and b != 64
    and not (b == 8 and lanes == 4),
}


def _lacks(rule):
    def webgpu_lacks(dtype):
        code, bits, lanes = _code(dtype)
        if (code, bits, lanes) in ((3, 0, 0), (fix._BOOL, 8, 1)) or dtype == "bool":
            return None
        if rule(code, bits, lanes):
            return "WGSL has no such type"
        return _REFERENCE_LACKS(dtype)

    return webgpu_lacks


def _fixed_build(rule):
    reference = fix._fixed_build

    def make(target, original):
        build = reference(target, original)
        if target != "webgpu":
            return build

        def wrong(mod, target_obj):
            saved = fix.webgpu_lacks
            fix.webgpu_lacks = _lacks(rule)
            try:
                message = fix.missing_type_error("webgpu", mod)
            finally:
                fix.webgpu_lacks = saved
            if message is not None and "WGSL has no such type" in message:
                raise ValueError(message)
            return build(mod, target_obj)

        return wrong

    return make


def install(name):
    return patched_install(fix, {"_fixed_build": _fixed_build(RULES[name])})
