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
"""Wrong versions of ``harness.input_copy.run``, each one plausible mistake in running a module
pass on a copy of its input: the wrong fixes of the module passes whose reference fix is that
run (SplitHostDevice's and AnnotateEntryFunc's, bugs/<key>/wrong_fixes.toml) share them.

Each takes ``(inner, mod)`` as ``input_copy.run`` does: ``inner`` the released pass's function,
``mod`` the module the caller gave (``rebuilt_copy`` and ``written_functions_only`` build one
from their options). ``run_is`` makes the edit that puts one in a reference fix's place.
"""

from harness import input_copy


def run_is(report, expr):
    """The edit (harness/wrong_fixes.py: a table's ``run``) that makes the ``run`` of
    ``report``'s reference fix the expression ``expr``, over this module as ``_mistakes`` and
    the report's wrong_runs.py as ``_wrong`` (where the mistakes only one report makes are)."""
    imports = (
        "from harness import input_copy_mistakes as _mistakes\n"
        f"from bugs.{report} import wrong_runs as _wrong\n\n"
    )
    return [("run = _input_copy.run", f"{imports}run = {expr}")]


def _config():
    ctx = input_copy.ir.PassContext.current()
    return dict(ctx.config.items()) if ctx.config is not None else {}


def several_functions_only(inner, mod):
    """A module of one function is written in place."""
    if len(mod.functions) > 1:
        return input_copy.run(inner, mod)
    return inner(mod)


def copy_after_write(inner, mod):
    """The pass runs on the input and the copy is taken of its result."""
    return input_copy.run(lambda _copy: inner(mod).clone(), mod)


def without_global_infos(inner, mod):
    """The copy is a new module of the functions and attributes: the global infos are lost."""
    return input_copy.run(lambda _copy: inner(type(mod)(mod.functions, attrs=mod.attrs)), mod)


def only_under_immutable_option(inner, mod):
    """The copy is taken only under the testing option that checks for it."""
    if not _config().get(input_copy.IMMUTABLE):
        return inner(mod)
    return input_copy.run(inner, mod)


def option_kept_for_inner(inner, mod):
    """The pass runs on a copy with the testing option still on, so the option sees it write."""
    return inner(mod.clone())


def one_function_only(inner, mod):
    """Only a module of one function is copied: one written among several is written in place."""
    if len(mod.functions) == 1:
        return input_copy.run(inner, mod)
    return inner(mod)


def rebuilt_copy(*, attrs, global_infos, option_lifted):
    """A ``run`` whose copy is a new module of the input's functions, given the input's
    attributes and global infos only where ``attrs`` and ``global_infos`` say so; the pass runs
    in the caller's context as ``input_copy.run`` makes it (``testing.immutable_module``
    lifted) only where ``option_lifted`` says so, else in the caller's context itself."""

    def run(inner, mod):
        kept = {}
        if attrs:
            kept["attrs"] = mod.attrs
        if global_infos:
            kept["global_infos"] = mod.global_infos
        copy = type(mod)(dict(mod.functions.items()), **kept)
        if option_lifted:
            return input_copy.run(lambda _clone: inner(copy), mod)
        return inner(copy)

    return run


def written_functions_only(*, one_function_kept):
    """A ``run`` that returns a module of the functions the pass wrote or added alone (the
    others dropped), or the whole result where it wrote none; with ``one_function_kept`` a
    module of one function comes back whole."""

    def run(inner, mod):
        result = input_copy.run(inner, mod)
        if one_function_kept and len(mod.functions) == 1:
            return result
        written = {
            gvar: func
            for gvar, func in result.functions.items()
            if gvar not in mod.functions or not func.same_as(mod.functions[gvar])
        }
        if not written:
            return result
        return type(mod)(written, attrs=result.attrs, global_infos=result.global_infos)

    return run
