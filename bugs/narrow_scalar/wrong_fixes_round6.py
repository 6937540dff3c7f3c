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
"""Blind round 6 wrong fixes of the narrow kernel scalar reference fix."""

import tvm_ffi

from bugs.narrow_scalar import reference_fix as fix
from harness.tvm_line import call_like, ir, named_symbol
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-signed-to-uint32": "signed ints below 32 bits are widened to uint32 instead of int32",
    "blind6-bool-kept": "bool is left out of the widened dtypes (only int/uint/float16/bfloat16)",
    "blind6-bfloat16-kept": "only float16 is widened to float32; bfloat16 stays a 16-bit parameter",
    "blind6-int16-kept": "ints are widened only below 16 bits (int8/uint8), int16/uint16 kept",
    "blind6-symbol-call-offset": "call_ffi_kernel launches cast args[i], not args[1+i]",
    "blind6-entry-after-body": "the kernel's Bind(scalar, Cast(narrow, wide)) goes after the body",
}

_INT, _UINT, _FLOAT, _BFLOAT, _BOOL = 0, 1, 2, 4, 6


def _wide(signed_wide="int32", with_bool=True, with_bf16=True, int_limit=32):
    def _wide_dtype(dtype):
        t = tvm_ffi.dtype(dtype)
        code = int(t.type_code)
        if t.lanes != 1 or t.bits >= 32:
            return None
        if code in (_INT, _UINT) and t.bits >= int_limit:
            return None
        if code == _INT or (with_bool and code == _BOOL):
            return signed_wide
        if code == _UINT:
            return "uint32"
        if (code == _FLOAT and t.bits == 16) or (with_bf16 and code == _BFLOAT):
            return "float32"
        return None

    return _wide_dtype


def _rewrite_calls_offset(func, kernels):
    def on_call(call):
        op = call.op
        if isinstance(op, ir.GlobalVar):
            widened = kernels.get(op.name_hint)
        elif (symbol := named_symbol(call, fix._KERNEL_CALLS)) is not None:
            widened = kernels.get(symbol)
        else:
            return call
        if not widened:
            return call
        return call_like(call, fix._cast_args(call.args, 0, widened))  # mistake: 0 for both

    body = tvm_ffi.structural_map(func.body, (ir.Call, on_call))
    return func if body.same_as(func.body) else func.with_body(body)


def _widen_kernel_entry_last(func):
    params, entry, widened = [], [], {}
    for i, param in enumerate(func.params):
        dtype = fix._scalar_dtype(param)
        wide = fix._wide_dtype(dtype) if dtype is not None else None
        if wide is None:
            params.append(param)
            continue
        wide_param = ir.Var(param.name, wide)
        stmts, _ = fix._kernel_entry(param, wide_param)
        params.append(wide_param)
        entry.extend(stmts)
        widened[i] = wide
    if not widened:
        return func, {}
    body = func.body
    rest = list(body.seq) if isinstance(body, ir.SeqStmt) else [body]
    body = ir.SeqStmt([*rest, *entry])  # mistake: the entry binding after the body
    return fix.function_like(func, params, body), widened


_PATCHES = {
    "blind6-signed-to-uint32": {"_wide_dtype": _wide(signed_wide="uint32")},
    "blind6-bool-kept": {"_wide_dtype": _wide(with_bool=False)},
    "blind6-bfloat16-kept": {"_wide_dtype": _wide(with_bf16=False)},
    "blind6-int16-kept": {"_wide_dtype": _wide(int_limit=16)},
    "blind6-symbol-call-offset": {"_rewrite_calls": _rewrite_calls_offset},
    "blind6-entry-after-body": {"_widen_kernel": _widen_kernel_entry_last},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
