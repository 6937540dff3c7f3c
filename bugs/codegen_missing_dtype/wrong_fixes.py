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
"""Wrong fixes of the codegen_missing_dtype report: variants of its reference fix.

Each replaces one step of bugs/codegen_missing_dtype/reference_fix.py (the targets it wraps,
the types it takes for missing, the error it raises) and installs it as usual. A type the
wrong fix forgets stays the released internal error, as the C++ site it forgot would.
"""

from bugs.codegen_missing_dtype import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "webgpu-only": "only CodeGenWebGPU is fixed: Metal's float64 stays an InternalError",
    "metal-only": "only CodeGenMetal is fixed: WebGPU's ICHECKs stay",
    "float64-only": "only a float64 (scalar or vector) becomes a ValueError: WebGPU's int64, "
    "uint64 and lane checks stay internal",
    "scalars-only": "only a scalar type becomes a ValueError: a vector of a missing type (and a "
    "vector of too many lanes) stays internal",
    "lanes-check-kept": "WebGPU's ICHECK on the vector lanes stays (the type checks are fixed)",
    "pod-argument-kept": "WebGPU's InternalError for a kernel scalar argument other than i32, "
    "u32 and f32 stays (PrintType alone is fixed)",
    "type-error": "the refusal is a TypeError, not the ValueError the description states",
    "type-not-named": "the ValueError names the target but not the type",
    "metal-rejects-64-bit": "Metal refuses every 64-bit type like WGSL, its long and ulong too",
}


# the reference predicates, taken before any wrong fix replaces them
_METAL_LACKS = fix.metal_lacks


def _forget(lacks, forgotten):
    """``lacks`` that answers 'has it' for the types ``forgotten`` accepts."""

    def wrong(dtype):
        return None if forgotten(dtype) else lacks(dtype)

    return wrong


def _lanes(dtype):
    return int(fix._dtype(dtype)[2])


def _not_float64(dtype):
    return not dtype.startswith("float64")


def _webgpu_lanes_kept(dtype):
    lanes = _lanes(dtype)
    return lanes != 1 and not 2 <= lanes <= 4


def _raising(kind, message=None):
    """The reference fix's build wrapper, raising ``kind`` (with ``message`` when given)."""

    def fixed_build(target, original):
        def build(mod, target_obj):
            try:
                return original(mod, target_obj)
            except fix.INTERNAL as err:
                if isinstance(err, ValueError | TypeError):
                    raise
                found = fix.missing_type_error(target, mod)
                if found is None:
                    raise
                raise kind(message.format(target=target) if message else found) from None

        return build

    return fixed_build


def _metal_rejects_64_bit(dtype):
    return _METAL_LACKS(dtype) or fix._dtype(dtype)[1] == 64


_PATCHES = {
    "webgpu-only": {"TARGETS": ("webgpu",)},
    "metal-only": {"TARGETS": ("metal",)},
    "float64-only": {
        "webgpu_lacks": _forget(fix.webgpu_lacks, _not_float64),
        "metal_lacks": lambda dtype: not _not_float64(dtype) and _METAL_LACKS(dtype),
        "webgpu_cannot_pass": lambda dtype: False,
    },
    "scalars-only": {
        "webgpu_lacks": _forget(fix.webgpu_lacks, lambda dtype: _lanes(dtype) != 1),
        "metal_lacks": lambda dtype: _lanes(dtype) == 1 and _METAL_LACKS(dtype),
    },
    "lanes-check-kept": {"webgpu_lacks": _forget(fix.webgpu_lacks, _webgpu_lanes_kept)},
    "pod-argument-kept": {"webgpu_cannot_pass": lambda dtype: False},
    "type-error": {"_fixed_build": _raising(TypeError)},
    "type-not-named": {
        "_fixed_build": _raising(ValueError, "the {target} target cannot represent a type")
    },
}


def _install_metal_64_bit():
    """Metal builds refuse every 64-bit type before the build; WebGPU as the reference fix."""
    reference = fix._fixed_build

    def fixed_build(target, original):
        wrapped = reference(target, original)
        if target != "metal":
            return wrapped

        def build(mod, target_obj):
            for _, func in mod.functions.items():
                if not isinstance(func, fix.ir.PrimFunc):
                    continue
                params = [fix._prim_dtype(p.ty) for p in func.params]
                for dtype in [d for d in params if d] + fix._body_dtypes(func):
                    if _metal_rejects_64_bit(dtype):
                        raise ValueError(
                            f"CodeGenMetal: the metal target cannot represent the type {dtype}"
                        )
            return wrapped(mod, target_obj)

        return build

    return patched_install(fix, {"_fixed_build": fixed_build})


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    if name == "metal-rejects-64-bit":
        return _install_metal_64_bit()
    return patched_install(fix, _PATCHES[name])
