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
"""Blind round 6: wrong fixes of annotate_entry_func_inplace (patch 0006, AnnotateEntryFunc).

Each is the reference fix's text with ``run`` changed (harness/wrong_fixes.py: EDITS; ``run_is``
in wrong_fixes.py).
"""

from bugs.annotate_entry_func_inplace.wrong_fixes import run_is

WRONG_FIXES = {
    "blind6-aef-copy-single-branch-only": (
        "only the one-function branch writes through CopyOnWrite: the branch for one public "
        "PrimFunc among private ones still marks the caller's function"
    ),
    "blind6-aef-copy-multi-branch-only": (
        "only the with_annotations branch writes through CopyOnWrite: a module of one "
        "function still has its function marked in place"
    ),
    "blind6-aef-copy-drops-attrs": (
        "the copy is built as IRModule(mod->functions): the module attributes are lost from "
        "the result"
    ),
    "blind6-aef-copy-after-write": (
        "the module is copied after the pass wrote it (the result is a copy, the input was "
        "already marked)"
    ),
    "blind6-aef-skip-when-attr-present": (
        "the 'nothing to write' guard tests the attribute's presence, not HasNonzeroAttr: a "
        "function with tirx.is_entry_func=False is returned unmarked"
    ),
    "blind6-aef-immutable-kept": (
        "under testing.immutable_module the copy is passed to the pass in the caller's context: "
        "the pass's write to the copy trips the check, every tvm.compile is refused"
    ),
}


UNSEEN = {
    "blind6-aef-skip-when-attr-present": (
        "a step the patch does not change: the guard is AnnotateEntryFunc's own HasNonzeroAttr "
        "test, an unchanged line of the C++ that the Python stand-in restates"
    ),
}


EDITS = {
    "blind6-aef-copy-single-branch-only": run_is("_mistakes.one_function_only"),
    "blind6-aef-copy-multi-branch-only": run_is("_mistakes.several_functions_only"),
    "blind6-aef-copy-drops-attrs": run_is(
        "_mistakes.rebuilt_copy(attrs=False, global_infos=True, option_lifted=False)"
    ),
    "blind6-aef-copy-after-write": run_is("_wrong.copy_after_write_unlifted"),
    "blind6-aef-skip-when-attr-present": run_is("_wrong.skip_when_attr_present"),
    "blind6-aef-immutable-kept": run_is("_mistakes.option_kept_for_inner"),
}
