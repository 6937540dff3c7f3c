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
"""Third blind round: wrong fixes of codegen_missing_dtype (WebGPU/Metal lack a type).

Each is a variant of the reference fix that makes one mistake in one step of
``bugs/codegen_missing_dtype/reference_fix.py``. They serve both TVM lines, as the reference fix
does (``harness/tvm_line.py``)."""

from bugs.codegen_missing_dtype import reference_fix as fix
from harness.tvm_line import ir

WRONG_FIXES = {
    "blind3-uint64-internal": "webgpu_lacks refuses 64 bits for signed integers only: a uint64 "
    "buffer is still refused with the internal error",
    "blind3-metal-no-long": "metal_lacks counts int64/uint64 as missing on Metal (integer widths "
    "1, 8, 16, 32 only): a kernel with an int64 buffer and a float64 one is refused naming int64, "
    "a type Metal has",
    "blind3-first-function-only": "missing_type_error looks at the module's first function only: a "
    "missing type in a second kernel is still refused with the internal error",
    "blind3-params-only": "missing_type_error looks at the parameters' types only, not the body: a "
    "float64 intermediate between float32 buffers is still refused with the internal error",
    "blind3-scalar-args-as-storage": "a WebGPU kernel's scalar arguments are checked with "
    "webgpu_lacks (types WGSL has) instead of webgpu_cannot_pass (i32, u32, f32): a float16 "
    "argument is still refused with the internal error",
    "blind3-vector-lanes-ignored": "webgpu_lacks does not check the lanes: a float32x8 vector is "
    "still refused with the internal error",
    "blind3-scan-before-build": "the module is scanned for a missing type before the code "
    "generator runs (one check before code generation), not only after it fails: a valid WebGPU "
    "kernel whose int64 arithmetic the code generator narrows is refused",
}


def _webgpu_lacks_int64_only(dtype):
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
    if code in (fix._UINT, fix._BOOL):  # the mistake: u64 let through
        return None
    return "WGSL has no such type"


def _webgpu_lacks_lanes_checked(last):
    """``webgpu_lacks`` with its lanes test left out (``last`` False) or moved after the type
    rules (``last`` True)."""

    def webgpu_lacks(dtype):
        code, bits, lanes = fix._dtype(dtype)
        if (code, bits, lanes) in ((3, 0, 0), (fix._BOOL, 8, 1)) or dtype == "bool":
            return None
        if lanes == 4 and code == fix._INT and bits == 8:
            return None
        if code == fix._FLOAT:
            return None if bits in (16, 32) else "WGSL has f16 and f32 only"
        if code in (fix._INT, fix._UINT, fix._BOOL):
            return None if bits != 64 else "WGSL has no 64-bit integers"
        if last and lanes != 1 and not 2 <= lanes <= 4:
            return "WGSL vectors have 2, 3 or 4 lanes"
        return "WGSL has no such type"

    return webgpu_lacks


def _metal_lacks_no_long(dtype):
    code, bits, lanes = fix._dtype(dtype)
    if (code, bits, lanes) in ((3, 0, 0), (fix._BOOL, 8, 1)) or dtype == "bool":
        return False
    if code == fix._BFLOAT and bits == 16:
        return False
    fits = lanes == 1 or 2 <= lanes <= 4
    if code == fix._FLOAT:
        return not (bits in (16, 32) and fits)
    if code in (fix._INT, fix._UINT, fix._BOOL):
        return not (bits in (1, 8, 16, 32) and fits)  # the mistake: 64 forgotten
    return True


def _scalar_message(dtype):
    return (
        "CodeGenWebGPU: the webgpu target cannot pass a kernel argument of type "
        f"{dtype}: its scalar arguments are i32, u32 or f32"
    )


def _missing_type_error(
    target,
    mod,
    first_only=False,
    with_body=True,
    scalar_check=None,
    scalars_first=False,
    first_kernel_only=False,
):
    """reference_fix.missing_type_error with one step changed (the keyword names which)."""
    scalar_check = scalar_check or fix.webgpu_cannot_pass
    functions = list(mod.functions.items())
    if first_only:
        functions = functions[:1]  # the mistake of blind3-first-function-only
    for _, func in functions:
        if not isinstance(func, ir.PrimFunc):
            continue
        params = list(func.params)
        buffers = [fix._prim_dtype(p.ty) for p in params if fix._is_pointer(p)]
        scalars = [str(p.ty) for p in params if isinstance(p.ty, ir.PrimType)]
        body = fix._body_dtypes(func) if with_body else []  # blind3-params-only
        if target == "metal":
            for dtype in [*buffers, *scalars, *body]:
                if fix.metal_lacks(dtype):
                    return f"CodeGenMetal: the metal target cannot represent the type {dtype}"
            continue
        steps = [
            (buffers, fix.webgpu_lacks, fix._webgpu_message),
            (scalars, scalar_check, _scalar_message),
            (body, fix.webgpu_lacks, fix._webgpu_message),
        ]
        if scalars_first:  # the mistake of blind4-scalars-before-buffers
            steps = [steps[1], steps[0], steps[2]]
        for dtypes, lacks, message in steps:
            for dtype in dtypes:
                if lacks(dtype):
                    return message(dtype)
        if first_kernel_only:  # the mistake of blind4-webgpu-first-kernel-only
            return None
    return None


def _fixed_build_scan_first(target, original):
    def build(mod, target_obj):
        message = fix.missing_type_error(target, mod)  # the mistake: before the build
        if message is not None:
            raise ValueError(message)
        return original(mod, target_obj)

    return build


PATCHES = {
    "blind3-uint64-internal": {"webgpu_lacks": _webgpu_lacks_int64_only},
    "blind3-metal-no-long": {"metal_lacks": _metal_lacks_no_long},
    "blind3-first-function-only": {
        "missing_type_error": lambda target, mod: _missing_type_error(target, mod, first_only=True)
    },
    "blind3-params-only": {
        "missing_type_error": lambda target, mod: _missing_type_error(target, mod, with_body=False)
    },
    "blind3-scalar-args-as-storage": {
        "missing_type_error": lambda target, mod: _missing_type_error(
            target, mod, scalar_check=lambda dtype: fix.webgpu_lacks(dtype) is not None
        )
    },
    "blind3-vector-lanes-ignored": {"webgpu_lacks": _webgpu_lacks_lanes_checked(last=False)},
    "blind3-scan-before-build": {"_fixed_build": _fixed_build_scan_first},
}
