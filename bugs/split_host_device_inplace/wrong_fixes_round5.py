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
"""Blind round 5: wrong fixes of SplitHostDevice's copy-on-write (patch 0006).

Each replaces the reference fix's ``run(inner, mod)`` (the pass on a copy of its input) by a
variant that models one mistake in the C++ ``pass_func``."""

from bugs.split_host_device_inplace import reference_fix as fix
from harness import input_copy
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-only-under-immutable": "copies the module only under testing.immutable_module "
    "(CopyOnWrite guarded by the option): a plain SplitHostDevice()(Before) still writes Before",
    "blind5-host-update-in-place": "the first write stays mod->Update(updates) and only "
    "Update(device_mod) goes through CopyOnWrite: the caller's host function is rewritten "
    "to launch a kernel its module does not hold",
    "blind5-early-return": "with nothing to write the pass returns mod at once, skipping "
    "ConvertSSA and LowerDeviceKernelLaunches (the guard wraps the whole tail)",
    "blind5-lower-inside-guard": "with nothing to write LowerDeviceKernelLaunches is skipped "
    "(the guard wraps it), ConvertSSA still runs: calls into already-split kernels stay "
    "unlowered",
    "blind5-copy-drops-attrs": "the copy is IRModule(mod->functions): the module's attributes "
    "and global infos are lost in the output",
    "blind5-new-module-of-updates": "the result is a new module of updates and device_mod "
    "only: the functions the pass left alone (host-only PrimFuncs) are dropped",
}


def _config():
    ctx = ir.PassContext.current()
    return dict(ctx.config.items()) if ctx.config is not None else {}


def _only_under_immutable(inner, mod):
    if not _config().get(input_copy.IMMUTABLE):
        return inner(mod)  # the released pass: writes the caller's module
    return input_copy.run(inner, mod)


def _nothing_written(result, mod):
    """Whether the pass had nothing to write: no kernel was split out (a kernel always comes
    with its rewritten host function)."""
    return all(gv in mod.functions for gv in result.functions)


def _host_update_in_place(inner, mod):
    result = input_copy.run(inner, mod)
    for gv, func in list(mod.functions.items()):
        if gv in result.functions and not result[gv].same_as(func):
            mod.update_func(gv, result[gv])  # mod->Update(updates) on the caller's module
    return result


def _early_return(inner, mod):
    result = input_copy.run(inner, mod)
    return mod if _nothing_written(result, mod) else result


def _lower_inside_guard(inner, mod):
    result = input_copy.run(inner, mod)
    if _nothing_written(result, mod):
        return ir.transform.ConvertSSA()(mod.clone())
    return result


def _copy_drops_attrs(inner, mod):
    def functions_only(_):
        return type(mod)(dict(mod.functions.items()))

    return _run_on(inner, mod, functions_only)


def _run_on(inner, mod, copy):
    """input_copy.run with another copy of ``mod``."""
    saved = type(mod).clone
    type(mod).clone = copy
    try:
        return input_copy.run(inner, mod)
    finally:
        type(mod).clone = saved


def _new_module_of_updates(inner, mod):
    result = input_copy.run(inner, mod)
    kept = {
        gv: func
        for gv, func in result.functions.items()
        if gv not in mod.functions or not func.same_as(mod[gv])
    }
    return type(mod)(kept, attrs=result.attrs, global_infos=result.global_infos)


_RUNS = {
    "blind5-only-under-immutable": _only_under_immutable,
    "blind5-host-update-in-place": _host_update_in_place,
    "blind5-early-return": _early_return,
    "blind5-lower-inside-guard": _lower_inside_guard,
    "blind5-copy-drops-attrs": _copy_drops_attrs,
    "blind5-new-module-of-updates": _new_module_of_updates,
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, {"run": _RUNS[name]})
