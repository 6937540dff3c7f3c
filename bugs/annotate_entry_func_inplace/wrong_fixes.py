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
"""Wrong fixes of the AnnotateEntryFunc-changes-its-input report, each the reference fix's own
text (bugs/annotate_entry_func_inplace/reference_fix.py) with its one step, ``run`` (the pass on
a copy of its input), changed (harness/wrong_fixes.py: EDITS).

The wrong ``run`` is a mistake of the shared copy (harness/input_copy_mistakes.py) or, where no
other report makes it, one of the functions below; the later rounds' modules
(wrong_fixes_round*.py) name theirs with ``run_is`` too.
"""

from functools import partial

from harness import input_copy as _input_copy
from harness import input_copy_mistakes as _mistakes
from harness.tvm_line import ir

WRONG_FIXES = {
    "copy-drops-module-attributes": "the copy is a new module of the same functions: the "
    "module's attributes and global infos are lost in the output",
    "one-function-branch-only": "CopyOnWrite in the one-function branch only: the entry among "
    "several functions is still marked in the given module",
    "blind-several-functions-only": (
        "copies only a module of several functions (the public-among-private branch); a module "
        "of one function is written in place"
    ),
    "blind-copy-after-write": (
        "the pass runs on the input and the copy is taken of its result (copied after the write)"
    ),
    "blind-without-global-infos": (
        "the copy is a new module of the input's functions and attributes: its global infos "
        "are dropped"
    ),
    "blind-only-under-immutable-option": (
        "copies only under the testing.immutable_module option (the symptom the report shows); "
        "elsewhere the input is still written"
    ),
    "blind-one-public-function-only": (
        "copies only when exactly one function is public (has a global_symbol): a module of one "
        "private function is written in place"
    ),
    "blind-option-kept-for-inner": (
        "runs the pass on a copy without lifting testing.immutable_module for the inner pass: "
        "every checked compile stops in it"
    ),
    "blind-annotated-function-only": (
        "the several-function branch returns a module of the annotated function alone: the "
        "private functions beside it are dropped"
    ),
}


# the edit that makes the reference fix's ``run`` an expression over
# harness/input_copy_mistakes.py (``_mistakes``) and this module (``_wrong``)
run_is = partial(_mistakes.run_is, "annotate_entry_func_inplace")


def _single(mod):
    return len(mod.functions) == 1


def _public(mod):
    """How many of the module's functions are public (have a global_symbol)."""
    return sum(f.attrs is not None and "global_symbol" in f.attrs for f in mod.functions.values())


def one_public_function_only(inner, mod):
    """Only a module with exactly one public function is copied."""
    return _input_copy.run(inner, mod) if _public(mod) == 1 else inner(mod)


def public_only(inner, mod):
    """Only a module with a public function is copied."""
    return _input_copy.run(inner, mod) if _public(mod) else inner(mod)


def no_copy_when_checked(inner, mod):
    """Under testing.immutable_module the option is lifted for the pass, but the pass is given
    the caller's module itself: the copy is forgotten on that path."""
    if not _mistakes._config().get(_input_copy.IMMUTABLE):
        return _input_copy.run(inner, mod)
    return _input_copy.run(lambda _clone: inner(mod), mod)


def marked_only(inner, mod):
    """The several-functions branch returns a module of the marked function alone (no other
    function, no module attributes or global infos)."""
    out = _input_copy.run(inner, mod)
    marked = {gv: f for gv, f in out.functions.items() if not f.same_as(mod[gv])}
    return out if _single(mod) or not marked else type(mod)(marked)


def returns_input(single):
    """The branch of a module of one function (``single``) or of several writes a copy but
    returns the module it was given."""
    return lambda inner, mod: mod if _single(mod) == single else _input_copy.run(inner, mod)


def copy_after_write_unlifted(inner, mod):
    """The pass runs on the input in the caller's context, and its result is copied."""
    return inner(mod).clone()


def skip_when_attr_present(inner, mod):
    """A module of one PrimFunc that has tirx.is_entry_func (of any value) comes back as it
    came; the released guard tests the attribute's value (HasNonzeroAttr)."""
    if _single(mod):
        (func,) = mod.functions.values()
        if isinstance(func, ir.PrimFunc) and func.attrs is not None:
            if "tirx.is_entry_func" in func.attrs:
                return mod
    return _input_copy.run(inner, mod)


def drops_when_written(keep_attrs):
    """Where the pass writes, the copy is a new module of the functions (with the module's
    attributes where ``keep_attrs``): the global infos, and the attributes, are lost."""

    def run(inner, mod):
        out = _input_copy.run(inner, mod)
        if all(out[gv.name_hint].same_as(f) for gv, f in mod.functions.items()):
            return out
        funcs = dict(out.functions.items())
        return type(mod)(funcs, attrs=mod.attrs) if keep_attrs else type(mod)(funcs)

    return run


EDITS = {
    "copy-drops-module-attributes": run_is(
        "_mistakes.rebuilt_copy(attrs=False, global_infos=False, option_lifted=False)"
    ),
    "one-function-branch-only": run_is("_mistakes.one_function_only"),
    "blind-several-functions-only": run_is("_mistakes.several_functions_only"),
    "blind-copy-after-write": run_is("_mistakes.copy_after_write"),
    "blind-without-global-infos": run_is("_mistakes.without_global_infos"),
    "blind-only-under-immutable-option": run_is("_mistakes.only_under_immutable_option"),
    "blind-one-public-function-only": run_is("_wrong.one_public_function_only"),
    "blind-option-kept-for-inner": run_is("_mistakes.option_kept_for_inner"),
    "blind-annotated-function-only": run_is(
        "_mistakes.written_functions_only(one_function_kept=True)"
    ),
}
