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
"""Blind round 7 wrong fixes of the lower_iket_inplace reference fix (patch 0010).

Each replaces the reference fix's ``run``. The released pass ``inner`` writes the module it is
given in place (``module->Update``): run on the caller's module it models a write left without
``CopyOnWrite``; run on a module with a function map of its own (not shared with anyone) it
models the stripping loop iterating the map it writes (no handle taken before the loop)."""

from bugs.lower_iket_inplace import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind7-cow-strip-branch-only": (
        "only the stripping branch writes through "
        "module.CopyOnWrite(); the instrumenting branch keeps module->Update: with IKET enabled "
        "the caller's kernels are instrumented"
    ),
    "blind7-cow-instrument-branch-only": (
        "the stripping loop iterates a handle but still writes "
        "module->Update(global_var, function): the caller's module loses its marks"
    ),
    "blind7-no-map-handle": (
        "CopyOnWrite added but the loop still ranges over module->functions: "
        "when the pass holds the only reference (inside a pipeline) the write moves the entry and "
        "the loop stops after the first kernel"
    ),
    "blind7-copy-drops-attrs": (
        "the copy is built as IRModule(module->functions): the stripped "
        "output loses the module's attributes and global infos"
    ),
    "blind7-copy-drops-global-infos": (
        "the copy is built as IRModule(module->functions, {}, "
        "module->attrs): the stripped output loses the module's global infos"
    ),
    "blind7-local-copy-strip": (
        "the stripping loop writes `IRModule out = module; "
        "out.CopyOnWrite()->Update(...)` but returns module: the output keeps its marks"
    ),
}


def _wrote(mod, out):
    return len(out.functions) != len(mod.functions) or any(
        not out[gv.name_hint].same_as(f) for gv, f in mod.functions.items()
    )


_REF = fix.run


def _cow_strip_only(inner, mod):
    return inner(mod) if fix.enabled(mod) else _REF(inner, mod)


def _cow_instrument_only(inner, mod):
    if fix.enabled(mod):
        return _REF(inner, mod)
    out = _REF(inner, mod)
    for gv, f in list(mod.functions.items()):
        if not out[gv.name_hint].same_as(f):
            mod.update_func(gv, out[gv.name_hint])  # module->Update on the caller's module
    return mod


def _no_map_handle(inner, mod):
    if fix.enabled(mod):
        return _REF(inner, mod)
    # the module as the pass holds it in a pipeline: its only holder, its map its own
    own = type(mod)(dict(mod.functions.items()), attrs=mod.attrs, global_infos=mod.global_infos)
    return inner(own)


def _drops(keep_attrs):
    def run(inner, mod):
        out = _REF(inner, mod)
        if fix.enabled(mod) or not _wrote(mod, out):
            return out
        funcs = dict(out.functions.items())
        return type(mod)(funcs, attrs=mod.attrs) if keep_attrs else type(mod)(funcs)

    return run


def _local_copy_strip(inner, mod):
    out = _REF(inner, mod)
    return out if fix.enabled(mod) else mod


RUNS = {
    "blind7-cow-strip-branch-only": _cow_strip_only,
    "blind7-cow-instrument-branch-only": _cow_instrument_only,
    "blind7-no-map-handle": _no_map_handle,
    "blind7-copy-drops-attrs": _drops(False),
    "blind7-copy-drops-global-infos": _drops(True),
    "blind7-local-copy-strip": _local_copy_strip,
}


def install(name):
    return patched_install(fix, {"run": RUNS[name]})
