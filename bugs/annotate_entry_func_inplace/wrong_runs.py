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
"""The wrong ``run``s that only the AnnotateEntryFunc-changes-its-input report's wrong fixes use
(bugs/annotate_entry_func_inplace/wrong_fixes.toml: a fix's ``run = "_wrong.<name>"``; the shared
ones are in harness/input_copy_mistakes.py). ``inner`` is the released pass.
"""

from harness import input_copy as _input_copy
from harness import input_copy_mistakes as _mistakes
from harness.tvm_line import ir


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
