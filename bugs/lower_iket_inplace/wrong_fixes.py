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
"""Wrong fixes of the LowerIket-changes-its-input report: variants of
bugs/lower_iket_inplace/reference_fix.py."""

from bugs.lower_iket_inplace import reference_fix as fix
from harness import input_copy as _input_copy

WRONG_FIXES = {
    "copy-on-write-only": "CopyOnWrite before each write (as SplitHostDevice's fix), the loop "
    "still iterates the map it writes: where the pass holds the only reference (tvm.compile) a "
    "module of several marked kernels keeps the marks of all but the first",
    "strip-branch-only": "CopyOnWrite in the stripping loop only: an IKET-enabled module is "
    "still instrumented in place",
    "instrument-branch-only": "CopyOnWrite where the instrumented kernels are written only: "
    "the stripped functions still go into the given module",
    "copy-drops-module-attributes": "the copy is a new module of the same functions: the "
    "module's attributes and global infos are lost in the output",
    "blind-enabled-by-attribute-only": (
        "decides the branch from the module attribute alone, forgetting the run-iket child's "
        "environment: there each kernel is instrumented alone"
    ),
    "blind-enabled-copy-after-write": (
        "with IKET enabled, the pass runs on the input and the copy is taken of its result "
        "(copied after the write)"
    ),
    "blind-alone-under-immutable-option": (
        "runs each function's module through the pass without lifting testing.immutable_module: "
        "a checked compile stops in LowerIket"
    ),
    "blind-kernels-only": (
        "strips only device kernels (calling_conv 2): marks in any other PrimFunc are kept"
    ),
    "blind-without-global-infos": (
        "writes the stripped functions into a new module of the input's functions and "
        "attributes: its global infos are dropped"
    ),
    "blind-public-functions-only": (
        "strips only public functions (those with a global_symbol): a private kernel keeps its "
        "marks"
    ),
    "blind-stripped-functions-only": (
        "returns a module of the functions it stripped only: the unmarked ones are dropped"
    ),
}

# the reference fix's run: the wrong fixes below replace fix.run
_reference = fix.run


def _copy_on_write_only(inner, mod):
    # CopyOnWrite copies nothing where the pass holds the only reference (tvm.compile): the
    # released pass then writes the map it iterates. Modelled by the released pass on a copy
    # that owns a copy of the function map (a write of an unchanged function makes the copy).
    # Called directly on a module its caller holds, the C++ mistake copies the map at its
    # first write and strips every function; this model does not, so only the compile tests
    # are its faithful killers
    def on_an_owned_copy(copy):
        for gvar, func in list(copy.functions.items())[:1]:
            copy.update_func(gvar, func)
        return inner(copy)

    return _input_copy.run(on_an_owned_copy, mod)


def _strip_branch_only(inner, mod):
    return inner(mod) if fix.enabled(mod) else _reference(inner, mod)


def _instrument_branch_only(inner, mod):
    return _reference(inner, mod) if fix.enabled(mod) else inner(mod)


def _copy_without_attributes(inner, mod):
    return _reference(inner, type(mod)(dict(mod.functions.items())))


# Wrong fixes written blind (from the reference fix and the patch alone).

_BLIND_REFERENCE_RUN = fix.run  # the reference fix's run, for the branch a variant keeps


def _blind_enabled_by_attribute_only(mod):
    flag = mod.attrs.get(fix.ENABLED_ATTR) if mod.attrs is not None else None
    return flag is not None and int(flag) != 0


def _blind_enabled_copy_after_write(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(lambda _copy: inner(mod).clone(), mod)
    return _BLIND_REFERENCE_RUN(inner, mod)


def _blind_alone_under_immutable_option(inner, mod, gvar, func):
    one = type(mod)({gvar: func}, attrs=mod.attrs, global_infos=mod.global_infos)
    return inner(one)[gvar]


def _strip_into(result, inner, mod, keep=None):
    """The reference fix's stripping loop: each PrimFunc of ``mod`` for which ``keep`` holds
    (every one without it) lowered alone, and written into ``result``, which it returns."""
    for gvar, func in mod.functions.items():
        if isinstance(func, fix.ir.PrimFunc) and (keep is None or keep(func)):
            lowered = fix.alone(inner, mod, gvar, func)
            if not lowered.same_as(func):
                result.update_func(gvar, lowered)
    return result


def _blind_strip_where(keep):
    """The reference fix's ``run``, lowering only the PrimFuncs for which ``keep`` holds."""

    def run(inner, mod):
        if fix.enabled(mod):
            return _input_copy.run(inner, mod)
        return _strip_into(mod.clone(), inner, mod, keep)

    return run


def _blind_attr(func, key):
    return func.attrs.get(key) if func.attrs is not None else None


def _blind_without_global_infos(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(inner, mod)
    return _strip_into(type(mod)(mod.functions, attrs=mod.attrs), inner, mod)


def _blind_stripped_functions_only(inner, mod):
    if fix.enabled(mod):
        return _input_copy.run(inner, mod)
    stripped = {}
    for gvar, func in mod.functions.items():
        if isinstance(func, fix.ir.PrimFunc):
            lowered = fix.alone(inner, mod, gvar, func)
            if not lowered.same_as(func):
                stripped[gvar] = lowered
    if not stripped:
        return mod.clone()
    return type(mod)(stripped, attrs=mod.attrs, global_infos=mod.global_infos)


PATCHES = {
    "copy-on-write-only": {"run": _copy_on_write_only},
    "strip-branch-only": {"run": _strip_branch_only},
    "instrument-branch-only": {"run": _instrument_branch_only},
    "copy-drops-module-attributes": {"run": _copy_without_attributes},
    "blind-enabled-by-attribute-only": {"enabled": _blind_enabled_by_attribute_only},
    "blind-enabled-copy-after-write": {"run": _blind_enabled_copy_after_write},
    "blind-alone-under-immutable-option": {"alone": _blind_alone_under_immutable_option},
    "blind-kernels-only": {
        "run": _blind_strip_where(lambda func: _blind_attr(func, "calling_conv") == 2)
    },
    "blind-without-global-infos": {"run": _blind_without_global_infos},
    "blind-public-functions-only": {
        "run": _blind_strip_where(lambda func: _blind_attr(func, "global_symbol") is not None)
    },
    "blind-stripped-functions-only": {"run": _blind_stripped_functions_only},
}
