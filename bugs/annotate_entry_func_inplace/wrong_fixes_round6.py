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
"""Blind round 6: wrong fixes of annotate_entry_func_inplace (patch 0006, AnnotateEntryFunc)."""

from bugs.annotate_entry_func_inplace import reference_fix as fix
from harness import input_copy as _input_copy
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

ENTRY = "tirx.is_entry_func"

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


def _run_single_branch_only(inner, mod):
    if len(mod.functions) == 1:
        return _input_copy.run(inner, mod)
    return inner(mod)


def _run_multi_branch_only(inner, mod):
    if len(mod.functions) == 1:
        return inner(mod)
    return _input_copy.run(inner, mod)


def _run_drops_attrs(inner, mod):
    return inner(type(mod)(dict(mod.functions.items()), global_infos=mod.global_infos))


def _run_after_write(inner, mod):
    return inner(mod).clone()


def _run_skip_present(inner, mod):
    if len(mod.functions) == 1:
        (func,) = mod.functions.values()
        if isinstance(func, ir.PrimFunc) and func.attrs is not None and ENTRY in func.attrs:
            return mod
    return _input_copy.run(inner, mod)


def _run_immutable_kept(inner, mod):
    return inner(mod.clone())


_RUNS = {
    "blind6-aef-copy-single-branch-only": _run_single_branch_only,
    "blind6-aef-copy-multi-branch-only": _run_multi_branch_only,
    "blind6-aef-copy-drops-attrs": _run_drops_attrs,
    "blind6-aef-copy-after-write": _run_after_write,
    "blind6-aef-skip-when-attr-present": _run_skip_present,
    "blind6-aef-immutable-kept": _run_immutable_kept,
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, {"run": _RUNS[name]})
