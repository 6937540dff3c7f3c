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
"""Blind round 5: wrong fixes of LowerIket's copy-on-write and stripping loop (patch 0010).

Each replaces one step of the reference fix (``run``: the branch and how each branch writes;
``enabled``/``child_env``: the branch decision, IketEnabled) by a variant that models one
mistake in the C++ ``LowerIketImpl``."""

from bugs.lower_iket_inplace import reference_fix as fix
from harness import input_copy
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-cow-no-snapshot": "writes through module.CopyOnWrite() but still loops over "
    "module->functions: where the pass holds the module alone (its map unshared, a hash "
    "table) the loop ends after the first function it strips",
    "blind5-snapshot-no-cow": "loops over a handle of the map but still writes "
    "module->Update(...) in the stripping branch: the caller's module loses its marks",
    "blind5-instrument-in-place": "the stripping branch is fixed, the instrumenting branch "
    "still writes module->Update(kernel.global_var, ...): the caller's kernels get "
    "instrumented",
    "blind5-enabled-exact-one": "the branch decision reads tirx.iket.enabled as == 1, not "
    "nonzero: with enabled=2 each kernel is instrumented on its own and the events are "
    "numbered per kernel, not across the module",
    "blind5-child-env-ignored": "the branch decision ignores a run-iket child's environment: "
    "there each kernel is instrumented on its own, so the module-wide checks (unique kernel "
    "symbols, one kind per declaration) are skipped",
    "blind5-new-module-of-stripped": "the stripping branch writes each stripped function into "
    "a new module instead of a copy of the input: the functions it leaves alone (unmarked "
    "host functions, non-PrimFuncs) are dropped",
}


_REFERENCE_RUN = fix.run  # the reference fix's run (patched_install replaces fix.run)


def _cow_no_snapshot(inner, mod):
    if fix.enabled(mod):
        return input_copy.run(inner, mod)
    # the module as the pass sees it when nobody else holds it: its own (unshared) map
    alone = type(mod)(dict(mod.functions.items()), attrs=mod.attrs, global_infos=mod.global_infos)
    saved = type(mod).clone
    type(mod).clone = lambda self: self  # the pass writes ``alone`` (nobody else holds it)
    try:
        return input_copy.run(inner, alone)
    finally:
        type(mod).clone = saved


def _snapshot_no_cow(inner, mod):
    result = _REFERENCE_RUN(inner, mod)
    if not fix.enabled(mod):
        for gv, func in list(mod.functions.items()):
            if not result[gv].same_as(func):
                mod.update_func(gv, result[gv])  # module->Update on the caller's module
    return result


def _instrument_in_place(inner, mod):
    if fix.enabled(mod):
        return inner(mod)  # the released branch: writes the caller's kernels
    return _REFERENCE_RUN(inner, mod)


def _enabled_exact_one(mod):
    flag = mod.attrs.get(fix.ENABLED_ATTR) if mod.attrs is not None else None
    if flag is not None and int(flag) == 1:
        return True
    return fix.child_env()


def _new_module_of_stripped(inner, mod):
    if fix.enabled(mod):
        return input_copy.run(inner, mod)
    stripped = {}
    for gv, func in mod.functions.items():
        if isinstance(func, ir.PrimFunc):
            lowered = fix.alone(inner, mod, gv, func)
            if not lowered.same_as(func):
                stripped[gv] = lowered
    return type(mod)(stripped, attrs=mod.attrs, global_infos=mod.global_infos)


_PATCHES = {
    "blind5-cow-no-snapshot": {"run": _cow_no_snapshot},
    "blind5-snapshot-no-cow": {"run": _snapshot_no_cow},
    "blind5-instrument-in-place": {"run": _instrument_in_place},
    "blind5-enabled-exact-one": {"enabled": _enabled_exact_one},
    "blind5-child-env-ignored": {"child_env": lambda: False},
    "blind5-new-module-of-stripped": {"run": _new_module_of_stripped},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
