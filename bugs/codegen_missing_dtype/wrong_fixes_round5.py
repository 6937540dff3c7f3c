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
"""Blind round 5: wrong fixes of the missing-dtype refusal (WebGPU, Metal).

Each changes one step of bugs/codegen_missing_dtype/reference_fix.py."""

from bugs.codegen_missing_dtype import reference_fix as fix
from harness.tvm_line import WalkResult, ir, walk
from harness.wrong_fixes import patched_install

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


def _first_kernel_only(target, mod):
    for _, func in mod.functions.items():
        if not isinstance(func, ir.PrimFunc):
            continue
        params = list(func.params)
        buffers = [fix._prim_dtype(p.ty) for p in params if fix._is_pointer(p)]
        scalars = [str(p.ty) for p in params if isinstance(p.ty, ir.PrimType)]
        body = fix._body_dtypes(func)
        if target == "metal":
            for dtype in [*buffers, *scalars, *body]:
                if fix.metal_lacks(dtype):
                    return f"CodeGenMetal: the metal target cannot represent the type {dtype}"
            continue
        for dtype in buffers:
            if fix.webgpu_lacks(dtype):
                return fix._webgpu_message(dtype)
        for dtype in scalars:
            if fix.webgpu_cannot_pass(dtype):
                return (
                    "CodeGenWebGPU: the webgpu target cannot pass a kernel argument of type "
                    f"{dtype}: its scalar arguments are i32, u32 or f32"
                )
        for dtype in body:
            if fix.webgpu_lacks(dtype):
                return fix._webgpu_message(dtype)
        return None  # the mistake: the other kernels are never looked at
    return None


def _element_before_lanes(dtype):
    code, bits, lanes = fix._dtype(dtype)
    if (code, bits, lanes) in ((3, 0, 0), (fix._BOOL, 8, 1)) or dtype == "bool":
        return None
    if lanes == 4 and code == fix._INT and bits == 8:
        return None
    if code == fix._FLOAT:  # the mistake: decided before the lanes are looked at
        return None if bits in (16, 32) else "WGSL has f16 and f32 only"
    if lanes != 1 and not 2 <= lanes <= 4:
        return "WGSL vectors have 2, 3 or 4 lanes"
    if code in (fix._INT, fix._UINT, fix._BOOL):
        return None if bits != 64 else "WGSL has no 64-bit integers"
    return "WGSL has no such type"


def _metal_no_lane_limit(dtype):
    code, bits, lanes = fix._dtype(dtype)
    if (code, bits, lanes) in ((3, 0, 0), (fix._BOOL, 8, 1)) or dtype == "bool":
        return False
    if code == fix._BFLOAT and bits == 16:
        return False
    fits = lanes == 1 or 2 <= lanes <= 4
    if code == fix._FLOAT:
        return bits not in (16, 32)  # the mistake: no lane limit for floats
    if code in (fix._INT, fix._UINT, fix._BOOL):
        return not (bits in (1, 8, 16, 32, 64) and fits)
    return True


def _body_vars_only(func):
    found = []

    def visit(node):
        if isinstance(node, ir.Var):  # the mistake: expressions' own types are not read
            dtype = fix._prim_dtype(getattr(node, "ty", None))
            if dtype is not None:
                found.append(dtype)
        return WalkResult.ADVANCE

    walk(func.body, visit, order="pre")
    return found


def _checked_before(target, original):
    def build(mod, target_obj):
        message = fix.missing_type_error(target, mod)  # the mistake: before the build
        if message is not None:
            raise ValueError(message)
        return original(mod, target_obj)

    return build


def _signed_64_only(dtype):
    code, bits, lanes = fix._dtype(dtype)
    if (code, bits, lanes) in ((3, 0, 0), (fix._BOOL, 8, 1)) or dtype == "bool":
        return None
    if lanes != 1 and not 2 <= lanes <= 4:
        return "WGSL vectors have 2, 3 or 4 lanes"
    if lanes == 4 and code == fix._INT and bits == 8:
        return None
    if code == fix._FLOAT:
        return None if bits in (16, 32) else "WGSL has f16 and f32 only"
    if code == fix._INT:
        return None if bits != 64 else "WGSL has no 64-bit integers"
    if code in (fix._UINT, fix._BOOL):  # the mistake: u64 is taken for a WGSL type
        return None
    return "WGSL has no such type"


_PATCHES = {
    "blind5-webgpu-first-kernel-only": {"missing_type_error": _first_kernel_only},
    "blind5-metal-not-wrapped": {"TARGETS": ("webgpu",)},
    "blind5-webgpu-element-before-lanes": {"webgpu_lacks": _element_before_lanes},
    "blind5-metal-no-lane-limit": {"metal_lacks": _metal_no_lane_limit},
    "blind5-body-vars-only": {"_body_dtypes": _body_vars_only},
    "blind5-check-before-build": {"_fixed_build": _checked_before},
    "blind5-webgpu-signed-64-only": {"webgpu_lacks": _signed_64_only},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
