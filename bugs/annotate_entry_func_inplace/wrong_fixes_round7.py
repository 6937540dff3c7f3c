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
"""Blind round 7 wrong fixes of the annotate_entry_func_inplace reference fix (patch 0006).

Each replaces the reference fix's ``run``. The released pass ``inner`` writes the module it is
given in place (both branches): run on the caller's ``mod`` it models a branch left with
``mod->Update``; run on ``mod.clone()`` a branch written through ``mod.CopyOnWrite()``."""

from bugs.annotate_entry_func_inplace import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind7-cow-single-branch-only": (
        "only the single-function branch writes through "
        "mod.CopyOnWrite(); the one-public-among-several branch keeps "
        "mod->Update(with_annotations): the caller's public function gets tirx.is_entry_func"
    ),
    "blind7-cow-multi-branch-only": (
        "only the mod->Update(with_annotations) branch is changed; a "
        "module of one PrimFunc is still annotated in the caller's module"
    ),
    "blind7-copy-drops-attrs": (
        "the copy is built as IRModule(mod->functions) before the write: "
        "the output loses the module's attributes and global infos"
    ),
    "blind7-copy-drops-global-infos": (
        "the copy is built as IRModule(mod->functions, {}, "
        "mod->attrs): the output loses the module's global infos"
    ),
    "blind7-local-copy-single": (
        "single-function branch: `IRModule out = mod; "
        "out.CopyOnWrite()->Update(...); return mod;`: a module of one PrimFunc comes back "
        "unannotated"
    ),
    "blind7-local-copy-multi": (
        "multi-function branch: the annotated copy is made in a local but "
        "`return mod;` returns the input: the one public PrimFunc among private ones is not marked"
    ),
}


def _ref(inner, mod):
    from harness import input_copy

    return input_copy.run(inner, mod)


def _single(mod):
    return len(mod.functions) == 1


def _cow_single_only(inner, mod):
    return _ref(inner, mod) if _single(mod) else inner(mod)


def _cow_multi_only(inner, mod):
    return inner(mod) if _single(mod) else _ref(inner, mod)


def _wrote(mod, out):
    return any(not out[gv.name_hint].same_as(f) for gv, f in mod.functions.items())


def _drops(keep_attrs):
    def run(inner, mod):
        out = _ref(inner, mod)
        if not _wrote(mod, out):
            return out
        funcs = dict(out.functions.items())
        return type(mod)(funcs, attrs=mod.attrs) if keep_attrs else type(mod)(funcs)

    return run


def _local(single):
    def run(inner, mod):
        out = _ref(inner, mod)
        return mod if _single(mod) == single else out

    return run


RUNS = {
    "blind7-cow-single-branch-only": _cow_single_only,
    "blind7-cow-multi-branch-only": _cow_multi_only,
    "blind7-copy-drops-attrs": _drops(False),
    "blind7-copy-drops-global-infos": _drops(True),
    "blind7-local-copy-single": _local(True),
    "blind7-local-copy-multi": _local(False),
}


def install(name):
    return patched_install(fix, {"run": RUNS[name]})
