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
"""Blind round 5: wrong fixes of AnnotateEntryFunc's copy-on-write (patch 0006).

Each replaces the reference fix's ``run(inner, mod)`` (the pass on a copy of its input) by a
variant that models one mistake in one of the pass's two writing branches.

They are edits of the reference fix's text (harness/wrong_fixes.py: EDITS; ``run_is`` in
wrong_fixes.py).
"""

from bugs.annotate_entry_func_inplace.wrong_fixes import run_is

WRONG_FIXES = {
    "blind5-single-branch-only": "only the one-function branch writes through CopyOnWrite; "
    "the branch of one public PrimFunc among several still does mod->Update(with_annotations)",
    "blind5-multi-branch-only": "only the several-functions branch writes through "
    "CopyOnWrite; a module of one function still gets its entry marked in place",
    "blind5-only-under-immutable": "copies the module only under testing.immutable_module: a "
    "plain pass (or a Sequential holding the caller's module) still marks the caller's entry",
    "blind5-return-with-annotations": "the several-functions branch returns with_annotations "
    "(the new module of the one marked function) instead of the updated copy: the private "
    "functions and the module's attributes are dropped",
    "blind5-return-input": "the several-functions branch updates a copy taken into another "
    "handle but returns mod: the output's entry is left unmarked",
    "blind5-copy-drops-attrs": "the copy is IRModule(mod->functions): the module's attributes "
    "and global infos are lost in the output",
}


EDITS = {
    "blind5-single-branch-only": run_is("_mistakes.one_function_only"),
    "blind5-multi-branch-only": run_is("_mistakes.several_functions_only"),
    "blind5-only-under-immutable": run_is("_mistakes.only_under_immutable_option"),
    "blind5-return-with-annotations": run_is("_wrong.marked_only"),
    "blind5-return-input": run_is("_wrong.returns_input(single=False)"),
    "blind5-copy-drops-attrs": run_is(
        "_mistakes.rebuilt_copy(attrs=False, global_infos=False, option_lifted=True)"
    ),
}
