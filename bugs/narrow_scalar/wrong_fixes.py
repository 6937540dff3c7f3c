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
"""Wrong fixes of the narrow kernel scalar report: variants of bugs/narrow_scalar/reference_fix.py.

Each replaces one step of the reference fix (which dtypes are widened and to what, what the
host passes, how the kernel gets the narrow value back, which kernels) and then installs it.
"""

from bugs.narrow_scalar import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "floats-only": "widens float16/bfloat16 only: int8, int16, uint8, uint16, bool stay narrow",
    "ints-only": "widens the integer types and bool only: float16/bfloat16 stay narrow",
    "skip-bool": "widens every narrow type except bool (bool is not an int or uint dtype)",
    "widen-to-64": "widens to 64 bits (float64, int64, uint64) instead of 32",
    "no-host-cast": "widens the kernel parameter, the host passes the narrow value uncast",
    "no-narrowing": "the kernel computes with the wide parameter instead of narrowing it back",
    "cpu-kernels-too": "also widens kernels called directly on the CPU (no runtime packs them)",
    "no-bfloat16": "float16 is widened to float32, bfloat16 stays narrow",
    "cuda-and-rocm-only": "only CUDA and ROCm kernels are widened: OpenCL, Vulkan, Metal and "
    "WebGPU kernels keep their narrow parameters",
    "first-param-only": "the launch casts only the kernel's first widened parameter: a second "
    "narrow scalar is passed narrow to its wide parameter",
    "split-kernels-only": "only the kernels SplitHostDevice splits out are widened: a kernel "
    "written as a module function and launched by the host keeps its narrow parameters",
}


def _floats_only(dtype):
    wide = _REFERENCE["_wide_dtype"](dtype)
    return wide if wide == "float32" else None


def _ints_only(dtype):
    wide = _REFERENCE["_wide_dtype"](dtype)
    return None if wide == "float32" else wide


def _skip_bool(dtype):
    return None if dtype == "bool" else _REFERENCE["_wide_dtype"](dtype)


def _to_64(dtype):
    wide = _REFERENCE["_wide_dtype"](dtype)
    return None if wide is None else wide.replace("32", "64")


def _no_bfloat16(dtype):
    return None if dtype == "bfloat16" else _REFERENCE["_wide_dtype"](dtype)


def _no_host_cast(value, _wide):
    return value


def _no_narrowing(param, wide_param):
    return [], {param: wide_param}


def _any_target(_kernel):
    return True


def _cuda_or_rocm(kernel):
    return kernel.attrs["target"].kind.name in ("cuda", "rocm")


_REFERENCE = {"_wide_dtype": fix._wide_dtype}

# wrong fix -> {attribute of reference_fixes.narrow_scalar: its wrong replacement}
_correct_cast_args = fix._cast_args


def _cast_first_only(args, first, widened):
    return _correct_cast_args(args, first, dict(list(widened.items())[:1]))


_PATCHES = {
    "floats-only": {"_wide_dtype": _floats_only},
    "ints-only": {"_wide_dtype": _ints_only},
    "skip-bool": {"_wide_dtype": _skip_bool},
    "widen-to-64": {"_wide_dtype": _to_64},
    "no-host-cast": {"_host_arg": _no_host_cast},
    "no-narrowing": {"_kernel_entry": _no_narrowing},
    "cpu-kernels-too": {"_launched_by_runtime": _any_target},
    "no-bfloat16": {"_wide_dtype": _no_bfloat16},
    "split-kernels-only": {
        "_launched_from_host": lambda gvar, _f, known: gvar.name_hint not in known
    },
    "first-param-only": {"_cast_args": _cast_first_only},
    "cuda-and-rocm-only": {"_launched_by_runtime": _cuda_or_rocm},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, _PATCHES[name])
