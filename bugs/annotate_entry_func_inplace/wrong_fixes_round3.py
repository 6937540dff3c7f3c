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
"""Third blind round: wrong fixes of annotate_entry_func_inplace (AnnotateEntryFunc's writes).

AnnotateEntryFunc writes its input; the C++ fix of patches/0006 writes through
``mod.CopyOnWrite()`` in both branches of the pass: the branch of a module of one function
(``mod->Update(gvar, WithAttr(...))``) and the branch of one public PrimFunc among several
(``mod->Update(with_annotations)``). The reference fix models that by running the pass on
``mod.clone()`` (``reference_fix.run``). Each variant below replaces ``run`` with one step done
wrong; ``inner`` is the original (in-place) pass.

The variants are edits of the reference fix's text that change ``run`` (harness/wrong_fixes.py:
EDITS; ``run_is`` in wrong_fixes.py).
"""

from bugs.annotate_entry_func_inplace.wrong_fixes import run_is

WRONG_FIXES = {
    "blind3-multi-branch-in-place": "CopyOnWrite only in the one-function branch: the branch "
    "of one public PrimFunc among several still writes mod->Update(with_annotations) into the "
    "caller's module",
    "blind3-single-branch-in-place": "CopyOnWrite only in the several-functions branch: a "
    "module of one function still gets its entry marked through mod->Update",
    "blind3-return-annotations-only": "the several-functions branch returns with_annotations "
    "(the new module holding only the marked entry) as the copy instead of updating a copy of "
    "mod: the private functions, attributes and global infos are lost",
    "blind3-return-input": "the one-function branch writes the mark into a copy but returns "
    "the input mod: the entry function of a one-function module is never marked",
    "blind3-copy-drops-global-infos": "the copy is rebuilt as IRModule(functions, attrs) "
    "instead of CopyOnWrite: the module's global infos (vdevices, ...) are dropped",
    "blind3-copy-only-when-immutable": "copies only when the testing.immutable_module option "
    "is set: a plain call still marks the caller's module",
    "blind3-immutable-on-copy": "the pass runs on the copy under the caller's "
    "testing.immutable_module option: writing the copy trips the check, so every compile "
    "under the option is refused",
}


EDITS = {
    "blind3-multi-branch-in-place": run_is("_mistakes.one_function_only"),
    "blind3-single-branch-in-place": run_is("_mistakes.several_functions_only"),
    "blind3-return-annotations-only": run_is("_wrong.marked_only"),
    "blind3-return-input": run_is("_wrong.returns_input(single=True)"),
    "blind3-copy-drops-global-infos": run_is("_mistakes.without_global_infos"),
    "blind3-copy-only-when-immutable": run_is("_mistakes.only_under_immutable_option"),
    "blind3-immutable-on-copy": run_is("_mistakes.option_kept_for_inner"),
}
