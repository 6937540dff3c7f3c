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
``mod->Update``; run on ``mod.clone()`` a branch written through ``mod.CopyOnWrite()``.

They are edits of the reference fix's text (harness/wrong_fixes.py: EDITS; ``run_is`` in
wrong_fixes.py).
"""

from bugs.annotate_entry_func_inplace.wrong_fixes import run_is

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


EDITS = {
    "blind7-cow-single-branch-only": run_is("_mistakes.one_function_only"),
    "blind7-cow-multi-branch-only": run_is("_mistakes.several_functions_only"),
    "blind7-copy-drops-attrs": run_is("_wrong.drops_when_written(keep_attrs=False)"),
    "blind7-copy-drops-global-infos": run_is("_wrong.drops_when_written(keep_attrs=True)"),
    "blind7-local-copy-single": run_is("_wrong.returns_input(single=True)"),
    "blind7-local-copy-multi": run_is("_wrong.returns_input(single=False)"),
}
