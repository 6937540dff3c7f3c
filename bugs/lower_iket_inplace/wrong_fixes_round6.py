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
"""Blind round 6: wrong fixes of lower_iket_inplace (patch 0010, LowerIket)."""

from bugs.lower_iket_inplace import reference_fix as fix
from harness import input_copy as _input_copy
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-iket-enabled-inplace": (
        "only the stripping branch writes through CopyOnWrite: the instrumenting branch "
        "(IKET enabled) still writes the instrumented kernels into the caller's module"
    ),
    "blind6-iket-copy-without-handle": (
        "both branches write through CopyOnWrite, but the stripping loop still iterates "
        "module->functions: past four kernels only the first is stripped"
    ),
    "blind6-iket-handle-without-copy": (
        "the loop iterates a handle of the map, but writes through module->Update: the caller's "
        "module is stripped in place"
    ),
    "blind6-iket-enabled-attr-present": (
        "IketEnabled is taken as 'the module has tirx.iket.enabled', not 'nonzero': a module "
        "with the attribute 0 is instrumented instead of stripped"
    ),
    "blind6-iket-enabled-equals-one": (
        "IketEnabled is taken as 'tirx.iket.enabled == 1': a module with the attribute 2 is "
        "stripped instead of instrumented"
    ),
    "blind6-iket-result-drops-attrs": (
        "the stripping branch's result is a new IRModule(functions): the module attributes "
        "(and global infos) are lost"
    ),
}

UNSEEN = {
    "blind6-iket-enabled-attr-present": (
        "a step the patch does not change: IketEnabled (any nonzero tirx.iket.enabled) is an "
        "unchanged function of the C++ that the Python stand-in restates"
    ),
}


def _strip_each(inner, mod, result):
    for gvar, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc):
            lowered = fix.alone(inner, mod, gvar, func)
            if not lowered.same_as(func):
                result.update_func(gvar, lowered)
    return result


def _run_enabled_inplace(inner, mod):
    if fix.enabled(mod):
        return inner(mod)
    return _strip_each(inner, mod, mod.clone())


def _own_copy(mod, attrs=None):
    """A copy of ``mod`` with a function map of its own (as the pass holds it alone inside
    tvm.compile, where CopyOnWrite copies nothing and the map is not shared)."""
    return type(mod)(
        dict(mod.functions.items()),
        attrs=mod.attrs if attrs is None else attrs,
        global_infos=mod.global_infos,
    )


def _run_copy_without_handle(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(inner, mod)
    return inner(_own_copy(mod))


def _run_handle_without_copy(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(inner, mod)
    return _strip_each(inner, mod, mod)


def _flag(mod):
    return mod.attrs.get(fix.ENABLED_ATTR) if mod.attrs is not None else None


def _with_flag(mod, value):
    attrs = {k: v for k, v in (mod.attrs or {}).items() if k != fix.ENABLED_ATTR}
    if value is not None:
        attrs[fix.ENABLED_ATTR] = value
    return attrs


def _run_enabled_present(inner, mod):
    """IketEnabled true for any tirx.iket.enabled: the kernels are instrumented (the inner
    pass is given the attribute as 1, the value it takes as enabled)."""
    if _flag(mod) is not None and not fix.enabled(mod):
        return inner(_own_copy(mod, attrs=_with_flag(mod, 1)))
    return _reference_run(inner, mod)


def _run_enabled_one(inner, mod):
    """IketEnabled only for tirx.iket.enabled == 1: any other value strips the marks (the
    inner pass, per function, is given the module without the attribute)."""
    flag = _flag(mod)
    if flag is not None and int(flag) not in (0, 1) and not fix.child_env():
        stripped = _own_copy(mod, attrs=_with_flag(mod, None))
        result = mod.clone()
        for gvar, func in mod.functions.items():
            if isinstance(func, ir.PrimFunc):
                lowered = fix.alone(inner, stripped, gvar, func)
                if not lowered.same_as(func):
                    result.update_func(gvar, lowered)
        return result
    return _reference_run(inner, mod)


def _reference_run(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(inner, mod)
    return _strip_each(inner, mod, mod.clone())


def _run_drops_attrs(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(inner, mod)
    return _strip_each(inner, mod, type(mod)(dict(mod.functions.items())))


_RUNS = {
    "blind6-iket-enabled-inplace": _run_enabled_inplace,
    "blind6-iket-copy-without-handle": _run_copy_without_handle,
    "blind6-iket-handle-without-copy": _run_handle_without_copy,
    "blind6-iket-enabled-attr-present": _run_enabled_present,
    "blind6-iket-enabled-equals-one": _run_enabled_one,
    "blind6-iket-result-drops-attrs": _run_drops_attrs,
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, {"run": _RUNS[name]})
