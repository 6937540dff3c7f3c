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
"""Blind round 5: wrong fixes of the printer_param_data reference fix (patch 0008)."""

import ast

from bugs.printer_param_data import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-param-no-decl-scalar": "DefineScalarName is called in the alloc_buffer branch of "
    "BufferDecl but not the decl_scalar one: a T.decl_scalar view's loads print as `B[0]`",
    "blind5-param-names-module-wide": "the scalar names are collected over the whole module, "
    "not per function: a cell `c` of one function keeps a parameter `c` of another shorthand",
    "blind5-param-shorthand-first-function": "the one-element buffers are taken from the "
    "module's first function for every function, so a later function's parameter stays "
    "shorthand",
    "blind5-param-no-suffix-base": "a printed name is matched to the IR's buffer names as "
    "printed, without the printer's `_1` suffix: a match_buffer `A` that shadows a parameter "
    "`A` (printed A_1) keeps its shorthand store",
    "blind5-param-shadow-base": "the scalar names are compared by their base name, so a cell "
    "printed `A_1` that shadows a parameter `A` makes the parameter a scalar name too",
    "blind5-param-no-lost-index-check": "a one-element parameter indexed by a loop variable is "
    "printed `A[0]` (the index the wheel dropped) instead of refused",
    "blind5-param-loads-in-assignments-only": "a load is undone only inside an assignment's "
    "value: a parameter read in an if condition or a call argument stays a bare name",
    "blind5-param-attr-buffer-only": "the buffer attribute undone is main's `.buffer` only, "
    "not 0.27's `.source`: `A.source.data` of a one-element parameter stays",
}

UNSEEN = {
    "blind5-param-no-lost-index-check": "as round 2's blind2-no-index-check: it differs only "
    "where the stand-in refuses (a one-element buffer read at a non-constant index), which the "
    "C++ prints with its index, so an upstream test of that program fails under the reference "
    "fix (proof: the four printing entry points of "
    "test_parameter_indexed_by_a_loop_variable_is_not_printed_as_another_program kill it)",
}


def _edits(base=True, shadow_base=False, loads_in_assign_only=False):
    """``fix.edits`` with one step changed."""

    def edits(func, shorthand):
        params = {a.arg for a in func.args.args}
        subscripted = {
            n.value.id
            for n in ast.walk(func)
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
        }
        names = {n.id for n in ast.walk(func) if isinstance(n, ast.Name)}
        scalar = fix.scalar_names(func)
        if shadow_base:
            scalar = scalar | {fix._base(s) for s in scalar}
        names -= scalar | subscripted
        names = {n for n in names if n in shorthand or (base and fix._base(n) in shorthand)}
        in_values = set()
        if loads_in_assign_only:
            for node in ast.walk(func):
                if isinstance(node, ast.Assign):
                    in_values |= {id(n) for n in ast.walk(node.value)}
        out, defined = [], set(params)
        attrs = {id(n.value) for n in ast.walk(func) if isinstance(n, ast.Attribute)}
        for node in ast.walk(func):
            if isinstance(node, ast.Attribute) and node.attr in fix.BUFFER_ATTRS:
                inner = node.value
                if isinstance(inner, ast.Name) and inner.id in names:
                    out.append((node, inner.id))
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name) and target.id in names:
                    if target.id in defined:
                        out.append((target, f"{target.id}[0]"))
                    defined.add(target.id)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                if loads_in_assign_only and id(node) not in in_values:
                    continue
                if node.id in names and id(node) not in attrs and node.id in defined | params:
                    out.append((node, f"{node.id}[0]"))
        return out

    return edits


def _module_wide_rewrite(text, obj, shorthand=None):
    """``fix.rewrite`` with the scalar names of every function of the text at once."""
    every = set()
    for node in ast.walk(ast.parse(text)):
        if fix._is_scalar_syntax(node):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            every |= {t.id for t in targets if isinstance(t, ast.Name)}
    saved = fix.scalar_names
    fix.scalar_names = lambda func: every
    try:
        return _REWRITE(text, obj, shorthand)
    finally:
        fix.scalar_names = saved


_REWRITE = fix.rewrite


def _first_function_shorthand(obj):
    funcs = fix.functions(obj)
    first = fix.shorthand_buffers(next(iter(funcs.values()))) if funcs else set()
    return {name: first for name in funcs}


def _unchecked_indexed(obj):
    return set()


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind5-param-no-decl-scalar":
        calls = {"local_scalar", "alloc_scalar", "shared_scalar"}
        return patched_install(fix, {"SCALAR_CALLS": calls})
    if name == "blind5-param-names-module-wide":
        return patched_install(fix, {"rewrite": _module_wide_rewrite})
    if name == "blind5-param-shorthand-first-function":
        return patched_install(fix, {"shorthand_by_function": _first_function_shorthand})
    if name == "blind5-param-no-suffix-base":
        return patched_install(fix, {"edits": _edits(base=False)})
    if name == "blind5-param-shadow-base":
        return patched_install(fix, {"edits": _edits(shadow_base=True)})
    if name == "blind5-param-no-lost-index-check":
        return patched_install(fix, {"indexed_shorthand": _unchecked_indexed})
    if name == "blind5-param-loads-in-assignments-only":
        return patched_install(fix, {"edits": _edits(loads_in_assign_only=True)})
    if name == "blind5-param-attr-buffer-only":
        return patched_install(fix, {"BUFFER_ATTRS": {"buffer"}})
    raise ValueError(f"unknown wrong fix {name!r}")
