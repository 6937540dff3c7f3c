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
"""Second blind round: wrong fixes of printer_param_data (patch 0008).

Each is the reference fix with one mistake in one step of its rule: which definitions are
scalar names (DefineScalarName), which printed names it undoes the shorthand of, per function
or not. Three more of the round (blind2-no-alloc-scalar, blind2-no-index-check,
blind2-repr-fallback) are killed on the proof side only and named in docs/proof.md.
"""

import ast

from bugs.printer_param_data import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind2-no-decl-scalar": "the scalar-syntax calls miss T.decl_scalar: a one-element "
    "decl_buffer of a parameter's data (FlattenBuffer's output) is printed A_1[0], "
    "which does not parse",
    "blind2-main-buffer-attr": "undoes the data shorthand only for main's spelling A.buffer, not "
    "0.27's A.source: A.source.data stays",
    "blind2-union-shorthand": "takes the shorthand buffers of the whole module for every function: "
    "a scalar parameter in another function named like a one-element buffer gets [0]",
    "blind2-module-scalar-names": "collects the scalar names over the whole printed module: a "
    "one-element parameter named like another function's cell keeps the shorthand",
    "blind2-subscripted-kept": "does not leave out names printed subscripted: a one-element "
    "decl_buffer (layout=None) of a parameter prints A_1[0][0]",
}


def _edits(
    func,
    shorthand,
    scalars=None,
    exclude_subscripted=True,
    every_assign_stores=False,
    by_base=False,
):
    """The reference ``edits`` with one step switchable: ``scalars`` as the scalar names (the
    function's own when None), without leaving out the names printed subscripted
    (``exclude_subscripted`` False), every assignment of a name taken for a store
    (``every_assign_stores``), or a name left out when its base is a scalar name's
    (``by_base``)."""
    params = {a.arg for a in func.args.args}
    subscripted = {
        n.value.id
        for n in ast.walk(func)
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
    }
    if not exclude_subscripted:
        subscripted = set()
    names = {n.id for n in ast.walk(func) if isinstance(n, ast.Name)}
    scalars = fix.scalar_names(func) if scalars is None else scalars
    if by_base:
        bases = {fix._base(s) for s in scalars}
        names = {n for n in names if fix._base(n) not in bases}
    names -= scalars | subscripted
    names = {n for n in names if n in shorthand or fix._base(n) in shorthand}
    out, defined = [], set(params)
    attrs = {id(n.value) for n in ast.walk(func) if isinstance(n, ast.Attribute)}
    for node in ast.walk(func):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in fix.BUFFER_ATTRS
            and "data" in fix.SITES
        ):
            inner = node.value
            if isinstance(inner, ast.Name) and inner.id in names:
                out.append((node, inner.id))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in names:
                if (target.id in defined or every_assign_stores) and "store" in fix.SITES:
                    out.append((target, f"{target.id}[0]"))
                defined.add(target.id)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and "load" in fix.SITES:
            if node.id in names and id(node) not in attrs and node.id in defined | params:
                out.append((node, f"{node.id}[0]"))
    return out


def _edits_keep_subscripted(func, shorthand):
    return _edits(func, shorthand, exclude_subscripted=False)


def _union_shorthand(obj):
    by_function = {name: fix.shorthand_buffers(func) for name, func in fix.functions(obj).items()}
    union = set().union(*by_function.values()) if by_function else set()
    return {name: set(union) for name in by_function}


def _module_scalar_names_rewrite(text, obj, shorthand=None):
    """The reference ``rewrite``, its edits leaving out the scalar names of the whole printed
    module instead of each function's own (the mistake)."""

    def module_scalar_names_edits(func, func_shorthand):
        return _edits(func, func_shorthand, scalars=fix.scalar_names(ast.parse(text)))

    saved = fix.edits
    fix.edits = module_scalar_names_edits
    try:
        return _REFERENCE_REWRITE(text, obj, shorthand)
    finally:
        fix.edits = saved


_REFERENCE_REWRITE = fix.rewrite


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind2-no-decl-scalar":
        return patched_install(fix, {"SCALAR_CALLS": fix.SCALAR_CALLS - {"decl_scalar"}})
    if name == "blind2-main-buffer-attr":
        return patched_install(fix, {"BUFFER_ATTRS": {"buffer"}})
    if name == "blind2-union-shorthand":
        return patched_install(fix, {"shorthand_by_function": _union_shorthand})
    if name == "blind2-module-scalar-names":
        return patched_install(fix, {"rewrite": _module_scalar_names_rewrite})
    if name == "blind2-subscripted-kept":
        return patched_install(fix, {"edits": _edits_keep_subscripted})
    raise ValueError(f"unknown wrong fix {name!r}")
