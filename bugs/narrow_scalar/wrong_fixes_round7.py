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
"""Round-7 blind wrong fixes of the narrow kernel scalar fix (patches/0004): one mistake each."""

import tvm_ffi

from bugs.narrow_scalar import reference_fix as fix
from harness.wrong_fixes import patched_install

# the reference fix's steps that a wrong fix builds on
_REF_WIDE = fix._wide_dtype
_REF_WIDEN_KERNEL = fix._widen_kernel

WRONG_FIXES = {
    "blind7-bool-kept": (
        "a bool kernel scalar is not widened (only int, uint and float codes checked)"
    ),
    "blind7-float16-as-int": (
        "a 16-bit float is widened to int32 (the generic below-32-bit branch is tested first)"
    ),
    "blind7-uint-as-int": "an unsigned scalar below 32 bits is widened to int32, not uint32",
    "blind7-threshold-16": (
        "only scalars below 16 bits are widened: int16, uint16, float16, bfloat16 stay"
    ),
    "blind7-wide-substituted": (
        "the kernel body uses the wide parameter in place of the scalar, with no narrowing Bind"
    ),
    "blind7-symbol-offset": (
        "a call that names the kernel by symbol gets its casts one argument "
        "early (symbol not skipped)"
    ),
    "blind7-first-only": "only the first narrow parameter of a kernel is widened",
    "blind7-module-kernel-missed": (
        "a kernel written as a module function (kDeviceKernelLaunch) "
        "is not widened, only split-out ones"
    ),
}


def _wide_no_bool(dtype):
    t = tvm_ffi.dtype(dtype)
    if t.lanes != 1 or t.bits >= 32 or int(t.type_code) == fix._BOOL:
        return None
    return _REF_WIDE(dtype)


def _wide_generic_first(dtype):
    t = tvm_ffi.dtype(dtype)
    code = int(t.type_code)
    if t.lanes != 1 or t.bits >= 32:
        return None
    if code == fix._UINT:
        return "uint32"
    if code in (fix._INT, fix._BOOL) or t.bits == 16:
        return "int32"
    if code == fix._BFLOAT:
        return "float32"
    return None


def _wide_uint_int(dtype):
    wide = _REF_WIDE(dtype)
    return "int32" if wide == "uint32" else wide


def _wide_below_16(dtype):
    t = tvm_ffi.dtype(dtype)
    return None if t.bits >= 16 else _REF_WIDE(dtype)


def _substituted(param, wide_param):
    return [], {param: wide_param}


def _cast_args_no_skip(args, first, widened):
    args = list(args)
    for i, wide in widened.items():
        args[i] = fix._host_arg(args[i], wide)
    return args


def _first_only(func):
    new, widened = _REF_WIDEN_KERNEL(func)
    if len(widened) <= 1:
        return new, widened
    first = min(widened)
    # widen only ``first``; the others keep their narrow parameter and lose their Bind
    params = [
        p if i == first or i not in widened else func.params[i] for i, p in enumerate(new.params)
    ]
    narrow = [func.params[i] for i in widened if i != first]
    kept = [
        s
        for s in new.body.seq
        if not (isinstance(s, fix.ir.Bind) and any(s.var.same_as(v) for v in narrow))
    ]
    body = fix.ir.SeqStmt(kept)
    return fix.function_like(func, params, body), {first: widened[first]}


def _from_host_split_only(gvar, _func, known):
    return gvar.name_hint not in known


PATCHES = {
    "blind7-bool-kept": {"_wide_dtype": _wide_no_bool},
    "blind7-float16-as-int": {"_wide_dtype": _wide_generic_first},
    "blind7-uint-as-int": {"_wide_dtype": _wide_uint_int},
    "blind7-threshold-16": {"_wide_dtype": _wide_below_16},
    "blind7-wide-substituted": {"_kernel_entry": _substituted},
    "blind7-symbol-offset": {"_cast_args": _cast_args_no_skip},
    "blind7-first-only": {"_widen_kernel": _first_only},
    "blind7-module-kernel-missed": {"_launched_from_host": _from_host_split_only},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, PATCHES[name])
