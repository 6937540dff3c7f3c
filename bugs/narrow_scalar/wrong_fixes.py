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
    "blind-unsigned-as-int32": "unsigned narrow scalars (uint8, uint16) travel as int32, not "
    "uint32",
    "blind-bits-gt-32": "the width test is bits > 32: int32 and uint32 parameters are rebound "
    "through a 32-bit copy of themselves",
    "blind-name-not-symbol": "the launches are matched by the kernel's GlobalVar name, not its "
    "global symbol: a module kernel whose symbol differs is launched with uncast narrow values",
    "blind-symbol-args-offset": "a launch naming the kernel by its symbol is cast from its first "
    "argument (the symbol) on: every widened argument is off by one",
    "blind-first-launch-only": "only the first launch of each kernel is cast: a kernel the host "
    "launches twice gets the narrow value at its second launch",
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


def _cast_args_from_zero(args, _first, widened):
    """``_cast_args`` that counts positions from the launch's first argument, also where that
    is the kernel's symbol."""
    return _correct_cast_args(args, 0, widened)


def _split_out_only(gvar, _func, known):
    """Only the kernels SplitHostDevice split out; the calling convention is not looked at."""
    return gvar.name_hint not in known


PATCHES = {
    "floats-only": {"_wide_dtype": _floats_only},
    "ints-only": {"_wide_dtype": _ints_only},
    "skip-bool": {"_wide_dtype": _skip_bool},
    "widen-to-64": {"_wide_dtype": _to_64},
    "no-host-cast": {"_host_arg": _no_host_cast},
    "no-narrowing": {"_kernel_entry": _no_narrowing},
    "cpu-kernels-too": {"_launched_by_runtime": _any_target},
    "no-bfloat16": {"_wide_dtype": _no_bfloat16},
    "split-kernels-only": {"_launched_from_host": _split_out_only},
    "first-param-only": {"_cast_args": _cast_first_only},
    "cuda-and-rocm-only": {"_launched_by_runtime": _cuda_or_rocm},
}


# ---------------------------------------------------------------------------------------------
# blind-* wrong fixes: written without reading the tests

import tvm_ffi  # noqa: E402

from harness.tvm_line import call_like, ir, named_symbol  # noqa: E402

_reference_wide_dtype = fix._wide_dtype
_reference_launched_by_runtime = fix._launched_by_runtime
_reference_widen_kernel = fix._widen_kernel


def _unsigned_as_int32(dtype):
    wide = _reference_wide_dtype(dtype)
    return "int32" if wide == "uint32" else wide


def _bits_gt_32(dtype):
    """``_wide_dtype`` whose width test lets 32-bit integers through."""
    t = tvm_ffi.dtype(dtype)
    if t.lanes == 1 and t.bits == 32 and int(t.type_code) in (0, 1):
        return "int32" if int(t.type_code) == 0 else "uint32"
    return _reference_wide_dtype(dtype)


def _widen_by_name(known, after):
    """``widen_launched_kernels`` that records each widened kernel under its GlobalVar's name
    only, not under its global symbol."""
    kernels, updates = {}, {}
    for gvar, func in after.functions.items():
        if not isinstance(func, ir.PrimFunc) or not fix._launched_from_host(gvar, func, known):
            continue
        if not fix._launched_by_runtime(func):
            continue
        new, widened = fix._widen_kernel(func)
        if widened:
            updates[gvar] = new
            kernels[gvar.name_hint] = widened
    if not kernels:
        return after
    for gvar, func in after.functions.items():
        if isinstance(func, ir.PrimFunc) and gvar not in updates:
            new = fix._rewrite_calls(func, kernels)
            if not new.same_as(func):
                updates[gvar] = new
    after = after.clone()
    for gvar, func in updates.items():
        after.update_func(gvar, func)
    return after


def _rewrite_first_launch(func, kernels):
    """``_rewrite_calls`` that casts the first launch of each kernel only."""
    seen = set()

    def on_call(call):
        op = call.op
        if isinstance(op, ir.GlobalVar):
            key, first = op.name_hint, 0
        elif (symbol := named_symbol(call, fix._KERNEL_CALLS)) is not None:
            key, first = symbol, 1
        else:
            return call
        widened = kernels.get(key)
        if not widened or key in seen:
            return call
        seen.add(key)
        return call_like(call, fix._cast_args(call.args, first, widened))

    body = tvm_ffi.structural_map(func.body, (ir.Call, on_call))
    return func if body.same_as(func.body) else func.with_body(body)


PATCHES["blind-unsigned-as-int32"] = {"_wide_dtype": _unsigned_as_int32}
PATCHES["blind-bits-gt-32"] = {"_wide_dtype": _bits_gt_32}
PATCHES["blind-name-not-symbol"] = {"widen_launched_kernels": _widen_by_name}
PATCHES["blind-symbol-args-offset"] = {"_cast_args": _cast_args_from_zero}
PATCHES["blind-first-launch-only"] = {"_rewrite_calls": _rewrite_first_launch}
