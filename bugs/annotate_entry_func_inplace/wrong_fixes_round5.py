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
variant that models one mistake in one of the pass's two writing branches."""

from bugs.annotate_entry_func_inplace import reference_fix as fix
from harness import input_copy
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

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

ENTRY = "tirx.is_entry_func"


def _config():
    ctx = ir.PassContext.current()
    return dict(ctx.config.items()) if ctx.config is not None else {}


def _single(mod):
    return len(mod.functions) == 1


def _single_branch_only(inner, mod):
    return input_copy.run(inner, mod) if _single(mod) else inner(mod)


def _multi_branch_only(inner, mod):
    return inner(mod) if _single(mod) else input_copy.run(inner, mod)


def _only_under_immutable(inner, mod):
    if not _config().get(input_copy.IMMUTABLE):
        return inner(mod)
    return input_copy.run(inner, mod)


def _marked(result, mod):
    """The functions the pass marked: {gvar: function}."""
    return {
        gv: func
        for gv, func in result.functions.items()
        if gv in mod.functions and not func.same_as(mod[gv])
    }


def _return_with_annotations(inner, mod):
    result = input_copy.run(inner, mod)
    marked = _marked(result, mod)
    if _single(mod) or not marked:
        return result
    return type(mod)(marked)


def _return_input(inner, mod):
    result = input_copy.run(inner, mod)
    if _single(mod):
        return result
    return mod


def _copy_drops_attrs(inner, mod):
    saved = type(mod).clone
    type(mod).clone = lambda _self: type(mod)(dict(mod.functions.items()))
    try:
        return input_copy.run(inner, mod)
    finally:
        type(mod).clone = saved


_RUNS = {
    "blind5-single-branch-only": _single_branch_only,
    "blind5-multi-branch-only": _multi_branch_only,
    "blind5-only-under-immutable": _only_under_immutable,
    "blind5-return-with-annotations": _return_with_annotations,
    "blind5-return-input": _return_input,
    "blind5-copy-drops-attrs": _copy_drops_attrs,
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, {"run": _RUNS[name]})
