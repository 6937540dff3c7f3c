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
"""Blind round 4: wrong fixes of AnnotateEntryFunc writing its input (patches/0006).

Each replaces the reference fix's ``run`` by a model of the C++ pass with one mistake. The
pass has two writing branches: a module of one function (``mod->Update(gvar, ...)``), and one
public PrimFunc among several functions (``mod->Update(with_annotations)``).

They are edits of the reference fix's text (harness/wrong_fixes.py: EDITS; ``run_is`` in
wrong_fixes.py).
"""

from bugs.annotate_entry_func_inplace.wrong_fixes import run_is

WRONG_FIXES = {
    "blind4-several-functions-writes-input": "CopyOnWrite only in the branch of a module of one "
    "function: with one public PrimFunc among private ones the caller's entry is still marked",
    "blind4-single-function-writes-input": "CopyOnWrite only in the branch of one public PrimFunc "
    "among several: a module of one function still has the caller's function marked",
    "blind4-several-functions-returns-input": "the branch of one public PrimFunc among several "
    "writes a copy but returns the module it was given: the output's entry is not marked",
    "blind4-copy-drops-attrs": "the copy is a new IRModule of the input's functions (and global "
    "infos): the output loses the module's attributes",
    "blind4-copy-drops-global-infos": "the copy is a new IRModule of the input's functions and "
    "attributes: the output loses the module's global infos",
    "blind4-copy-only-under-immutable-option": "copies the module only when the "
    "testing.immutable_module option is set: an ordinary compile still marks the caller's entry",
}


EDITS = {
    "blind4-several-functions-writes-input": run_is("_mistakes.one_function_only"),
    "blind4-single-function-writes-input": run_is("_mistakes.several_functions_only"),
    "blind4-several-functions-returns-input": run_is("_wrong.returns_input(single=False)"),
    "blind4-copy-drops-attrs": run_is(
        "_mistakes.rebuilt_copy(attrs=False, global_infos=True, option_lifted=False)"
    ),
    "blind4-copy-drops-global-infos": run_is(
        "_mistakes.rebuilt_copy(attrs=True, global_infos=False, option_lifted=False)"
    ),
    "blind4-copy-only-under-immutable-option": run_is("_mistakes.only_under_immutable_option"),
}
