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
"""Blind round 5 wrong fixes of the narrow kernel scalar report (patches/0004)."""

import tvm_ffi

from bugs.narrow_scalar import reference_fix as fix
from harness.tvm_line import call_like, ir, named_symbol
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-unsigned-as-int32": "uint8/uint16 scalars are widened to int32 instead of uint32",
    "blind5-bool-kept-narrow": "bool is left out of the widening (only int codes become int32)",
    "blind5-bfloat16-kept-narrow": "only float16 is widened to float32; bfloat16 stays narrow",
    "blind5-named-launch-offset-0": "a launch by symbol (call_ffi_kernel) casts args[i], "
    "forgetting the symbol at args[0]",
    "blind5-kernel-keyed-by-name-only": "widened kernels are looked up by GlobalVar name only, "
    "not by global_symbol: a launch naming a module kernel's own symbol is not cast",
    "blind5-widen-non-cpu-devices": "kernels are widened on every non-CPU device "
    "(ext_dev, Hexagon too), not only those a device runtime launches",
    "blind5-first-call-site-only": "each widened kernel's call sites are consumed: only its "
    "first launch gets the casts",
    "blind5-entry-after-decls": "the kernel's Bind(x, Cast(narrow, x_wide)) goes after its "
    "leading buffer declarations instead of before them",
}

_INT, _UINT, _FLOAT, _BFLOAT, _BOOL = fix._INT, fix._UINT, fix._FLOAT, fix._BFLOAT, fix._BOOL


def _wide_unsigned_int32(dtype):
    t = tvm_ffi.dtype(dtype)
    code = int(t.type_code)
    if t.lanes != 1 or t.bits >= 32:
        return None
    if code in (_INT, _BOOL, _UINT):  # mistake: unsigned folded into int32
        return "int32"
    if (code == _FLOAT and t.bits == 16) or code == _BFLOAT:
        return "float32"
    return None


def _wide_no_bool(dtype):
    t = tvm_ffi.dtype(dtype)
    code = int(t.type_code)
    if t.lanes != 1 or t.bits >= 32:
        return None
    if code == _INT:  # mistake: bool forgotten
        return "int32"
    if code == _UINT:
        return "uint32"
    if (code == _FLOAT and t.bits == 16) or code == _BFLOAT:
        return "float32"
    return None


def _wide_no_bfloat16(dtype):
    t = tvm_ffi.dtype(dtype)
    code = int(t.type_code)
    if t.lanes != 1 or t.bits >= 32:
        return None
    if code in (_INT, _BOOL):
        return "int32"
    if code == _UINT:
        return "uint32"
    if code == _FLOAT and t.bits == 16:  # mistake: bfloat16 forgotten
        return "float32"
    return None


def _rewrite_calls_factory(symbol_first, by_symbol=True, consume=False):
    def _rewrite_calls(func, kernels):
        def on_call(call):
            op = call.op
            if isinstance(op, ir.GlobalVar):
                key, first = op.name_hint, 0
            elif (symbol := named_symbol(call, fix._KERNEL_CALLS)) is not None:
                key, first = symbol, symbol_first
            else:
                return call
            widened = kernels.pop(key, None) if consume else kernels.get(key)
            if not widened:
                return call
            return call_like(call, fix._cast_args(call.args, first, widened))

        body = tvm_ffi.structural_map(func.body, (ir.Call, on_call))
        return func if body.same_as(func.body) else func.with_body(body)

    return _rewrite_calls


def _widen_launched_kernels_by_name(known, after):
    """widen_launched_kernels, the kernels keyed by their GlobalVar's name only."""
    kernels, updates = {}, {}
    for gvar, func in after.functions.items():
        if not isinstance(func, ir.PrimFunc) or not fix._launched_from_host(gvar, func, known):
            continue
        if not fix._launched_by_runtime(func):
            continue
        new, widened = fix._widen_kernel(func)
        if widened:
            updates[gvar] = new
            kernels[gvar.name_hint] = widened  # mistake: the global_symbol is not a key
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


def _launched_by_non_cpu(kernel):
    target = kernel.attrs.get("target") if kernel.attrs is not None else None
    if target is None:
        return False
    return int(target.get_target_device_type()) != 1  # mistake: any device but the CPU


def _widen_kernel_entry_after_decls(func):
    """_widen_kernel with the entry bindings after the body's leading DeclBuffers."""
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
    k = 0
    while k < len(rest) and _is_declaration(rest[k]):
        k += 1
    body = ir.SeqStmt([*rest[:k], *entry, *rest[k:]])  # mistake: after the declarations
    return fix.function_like(func, params, body), widened


def _is_declaration(stmt):
    if ir.DeclBuffer is not None and isinstance(stmt, ir.DeclBuffer):
        return True
    value = getattr(stmt, "value", None)  # tvm-tirx: Bind(v, decl_tensor(...))
    return (
        isinstance(stmt, ir.Bind)
        and isinstance(value, ir.Call)
        and getattr(value.op, "name", "") == "tirx.decl_tensor"
    )


_PATCHES = {
    "blind5-unsigned-as-int32": {"_wide_dtype": _wide_unsigned_int32},
    "blind5-bool-kept-narrow": {"_wide_dtype": _wide_no_bool},
    "blind5-bfloat16-kept-narrow": {"_wide_dtype": _wide_no_bfloat16},
    "blind5-named-launch-offset-0": {"_rewrite_calls": _rewrite_calls_factory(0)},
    "blind5-kernel-keyed-by-name-only": {"widen_launched_kernels": _widen_launched_kernels_by_name},
    "blind5-widen-non-cpu-devices": {"_launched_by_runtime": _launched_by_non_cpu},
    "blind5-first-call-site-only": {"_rewrite_calls": _rewrite_calls_factory(1, consume=True)},
    "blind5-entry-after-decls": {"_widen_kernel": _widen_kernel_entry_after_decls},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
