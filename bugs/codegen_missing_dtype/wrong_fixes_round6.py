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
"""Blind round 6: wrong fixes of the WebGPU/Metal missing-type ValueError."""

from bugs.codegen_missing_dtype import reference_fix as fix
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

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


def _missing(target, mod, first_only=False, body=True, scalars_first=False):
    """missing_type_error with the one change of a wrong fix."""
    for _, func in mod.functions.items():
        if not isinstance(func, ir.PrimFunc):
            continue
        params = list(func.params)
        buffers = [fix._prim_dtype(p.ty) for p in params if fix._is_pointer(p)]
        scalars = [str(p.ty) for p in params if isinstance(p.ty, ir.PrimType)]
        found = fix._body_dtypes(func) if (body or target == "metal") else []
        if target == "metal":
            for dtype in [*buffers, *scalars, *found]:
                if fix.metal_lacks(dtype):
                    return f"CodeGenMetal: the metal target cannot represent the type {dtype}"
        else:
            checks = [("b", buffers), ("s", scalars), ("b", found)]
            if scalars_first:
                checks[0], checks[1] = checks[1], checks[0]
            for kind, dtypes in checks:
                for dtype in dtypes:
                    if kind == "b" and fix.webgpu_lacks(dtype):
                        return fix._webgpu_message(dtype)
                    if kind == "s" and fix.webgpu_cannot_pass(dtype):
                        return (
                            "CodeGenWebGPU: the webgpu target cannot pass a kernel argument of "
                            f"type {dtype}: its scalar arguments are i32, u32 or f32"
                        )
        if first_only:
            return None
    return None


def _metal_lacks(no_int64=False, no_bfloat=False):
    def lacks(dtype):
        code, bits, lanes = fix._dtype(dtype)
        if (code, bits, lanes) in ((3, 0, 0), (fix._BOOL, 8, 1)) or dtype == "bool":
            return False
        if code == fix._BFLOAT and bits == 16 and not no_bfloat:
            return False
        fits = lanes == 1 or 2 <= lanes <= 4
        if code == fix._FLOAT:
            return not (bits in (16, 32) and fits)
        if code in (fix._INT, fix._UINT, fix._BOOL):
            widths = (1, 8, 16, 32) if no_int64 else (1, 8, 16, 32, 64)
            return not (bits in widths and fits)
        return True

    return lacks


def _webgpu_lacks_lanes_late(dtype):
    code, bits, lanes = fix._dtype(dtype)
    if (code, bits, lanes) in ((3, 0, 0), (fix._BOOL, 8, 1)) or dtype == "bool":
        return None
    if lanes == 4 and code == fix._INT and bits == 8:
        return None
    if code == fix._FLOAT:
        return None if bits in (16, 32) else "WGSL has f16 and f32 only"
    if lanes != 1 and not 2 <= lanes <= 4:
        return "WGSL vectors have 2, 3 or 4 lanes"
    if code in (fix._INT, fix._UINT, fix._BOOL):
        return None if bits != 64 else "WGSL has no 64-bit integers"
    return "WGSL has no such type"


PATCHES = {
    "blind6-cmd-first-func-only": {
        "missing_type_error": lambda t, m: _missing(t, m, first_only=True)
    },
    "blind6-cmd-metal-int64-lacking": {"metal_lacks": _metal_lacks(no_int64=True)},
    "blind6-cmd-webgpu-uint32-arg": {
        "webgpu_cannot_pass": lambda dtype: dtype not in ("int32", "float32")
    },
    "blind6-cmd-lanes-after-scalar": {"webgpu_lacks": _webgpu_lacks_lanes_late},
    "blind6-cmd-webgpu-body-skipped": {
        "missing_type_error": lambda t, m: _missing(t, m, body=False)
    },
    "blind6-cmd-scalars-first": {
        "missing_type_error": lambda t, m: _missing(t, m, scalars_first=True)
    },
}


def install(name):
    return patched_install(fix, PATCHES[name])
