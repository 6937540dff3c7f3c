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
"""Wrong fixes of the TVMScript scalar sugar report: variants of bugs/printer_cell/reference_fix.py.

Each narrows which cells lose the sugar, or which annotations the builder takes, then installs
the reference fix.
"""

import re

import tvm
from bugs.printer_cell import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "annotations-only": "only annotated cells lose the sugar: shared/global cells come back local",
    "scope-only": "only cells outside local scope lose the sugar: annotations are still dropped",
    "device-type-only": "only cells annotated with device_type lose the sugar (other keys dropped)",
    "no-builder-annotations": "the printer keeps the full form, the builder takes no annotations",
    "first-annotation-only": "the builder passes on a cell's first annotation only (a second key "
    "is dropped)",
    "first-cell-only": "only a function's first cell is checked: a later cell's annotations and "
    "scope are dropped",
    "blind-shared-scope-only": "P1 keeps the sugar unless a cell is annotated or its scope is "
    "exactly 'shared' (shared.dyn and global cells still print as local ones)",
    "blind-shared-prefix-scope": "P1 keeps the sugar unless a cell is annotated or its scope "
    "starts with 'shared' (a global cell still prints as a local one)",
    "blind-local-prefix-scope": "P1 takes every scope that starts with 'local' for local (a "
    "'local.var' cell still prints through the sugar and comes back 'local')",
    "blind-sugar-off-for-every-cell": "P1 too wide: any one-element cell, a plain local one "
    "too, prints as the full declaration",
    "blind-shared-scalar-drops-annotations": "P3 in two of three builders: shared_scalar takes "
    "annotations but does not pass them on",
    "blind-alloc-scalar-drops-annotations": "P3 in two of three builders: alloc_scalar (global, "
    "shared.dyn) takes annotations but does not pass them on",
    "blind-local-scalar-drops-annotations": "P3 in two of three builders: local_scalar takes "
    "annotations but does not pass them on",
    "blind-dtype-literal-local-only": "P2 writes the dtype as a string for T.local_scalar only "
    "(T.shared_scalar(T.float32), T.alloc_scalar(T.float32) stay)",
}


def _annotated(obj, cells=None):
    return any(len(node.annotations) > 0 for node in fix.scalar_cells(obj))


def _non_local(obj, cells=None):
    return any(fix._scope(node.buffer) != "local" for node in fix.scalar_cells(obj))


def _device_type_annotated(obj, cells=None):
    return any("device_type" in node.annotations for node in fix.scalar_cells(obj))


def _first_cell_only(obj, cells=None):
    funcs = obj.functions.values() if isinstance(obj, tvm.IRModule) else [obj]
    firsts = [cell for func in funcs for cell in fix.scalar_cells(func)[:1]]
    return any(len(n.annotations) > 0 or fix._scope(n.buffer) != "local" for n in firsts)


def _first_annotation_only(dtype="float32", scope="global", annotations=None):
    first = dict(list(annotations.items())[:1]) if annotations else annotations
    return _REFERENCE["alloc_scalar"](dtype, scope, first)


def _without_annotations(dtype="float32", scope="global", annotations=None):
    del annotations
    return _REFERENCE["alloc_scalar"](dtype, scope)


_REFERENCE = {"alloc_scalar": fix.alloc_scalar}

# wrong fix -> {attribute of reference_fixes.printer_cell: its wrong replacement}
_PATCHES = {
    "annotations-only": {"sugar_would_change": _annotated},
    "scope-only": {"sugar_would_change": _non_local},
    "device-type-only": {"sugar_would_change": _device_type_annotated},
    "no-builder-annotations": {"alloc_scalar": _without_annotations},
    "first-annotation-only": {"alloc_scalar": _first_annotation_only},
    "first-cell-only": {"sugar_would_change": _first_cell_only},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, {**_PATCHES, **_BLIND_PATCHES}[name])


# ---------------------------------------------------------------- a blind reviewer's variants


def _blind_cells(obj, cells):
    return fix.scalar_cells(obj) if cells is None else cells


def _blind_shared_scope_only(obj, cells=None):
    return any(
        len(node.annotations) > 0 or fix._scope(node.buffer) == "shared"
        for node in _blind_cells(obj, cells)
    )


def _blind_shared_prefix_scope(obj, cells=None):
    return any(
        len(node.annotations) > 0 or fix._scope(node.buffer).startswith("shared")
        for node in _blind_cells(obj, cells)
    )


def _blind_local_prefix_scope(obj, cells=None):
    return any(
        len(node.annotations) > 0 or not fix._scope(node.buffer).startswith("local")
        for node in _blind_cells(obj, cells)
    )


def _blind_every_cell(obj, cells=None):
    return bool(_blind_cells(obj, cells))


def _blind_shared_scalar(dtype="float32", annotations=None):
    return fix.alloc_scalar(dtype, "shared")


def _blind_alloc_scalar(dtype="float32", scope="global", annotations=None):
    return fix.alloc_scalar(dtype, scope)


def _blind_local_scalar(dtype="float32", annotations=None):
    return fix.alloc_scalar(dtype, "local")


def _script_with(p2_cells, p2_pattern=r"alloc|local|shared", p2_always=True):
    """The reference ``_script`` with P2 over ``p2_cells(cells, obj)``, with ``p2_pattern``
    for the builder functions, and (``p2_always`` False) only when P1 turned the sugar off."""

    def factory(original):
        def script(obj, config):
            cells = fix.scalar_cells(obj)
            sugar = config is None or config.syntax_sugar
            unsugared = False
            if sugar and fix.sugar_would_change(obj, cells):
                config = fix.without_sugar(config)
                unsugared = True
            text = original(obj, config)
            if not p2_always and not unsugared:
                return text
            for dtype in sorted({str(node.buffer.dtype) for node in p2_cells(cells, obj)}):
                text = re.sub(
                    rf"\bT\.({p2_pattern})_scalar\(T\.{re.escape(dtype)}\b",
                    rf'T.\1_scalar("{dtype}"',
                    text,
                )
            return text

        script._printer_cell_fix = True
        return script

    return factory


def _all(cells, _obj):
    return cells


def _blind_replacements(**changed):
    return {**fix._REPLACEMENTS, **changed}


_BLIND_PATCHES = {
    "blind-shared-scope-only": {"sugar_would_change": _blind_shared_scope_only},
    "blind-shared-prefix-scope": {"sugar_would_change": _blind_shared_prefix_scope},
    "blind-local-prefix-scope": {"sugar_would_change": _blind_local_prefix_scope},
    "blind-sugar-off-for-every-cell": {"sugar_would_change": _blind_every_cell},
    "blind-shared-scalar-drops-annotations": {
        "_REPLACEMENTS": _blind_replacements(shared_scalar=_blind_shared_scalar)
    },
    "blind-alloc-scalar-drops-annotations": {
        "_REPLACEMENTS": _blind_replacements(alloc_scalar=_blind_alloc_scalar)
    },
    "blind-local-scalar-drops-annotations": {
        "_REPLACEMENTS": _blind_replacements(local_scalar=_blind_local_scalar)
    },
    "blind-dtype-literal-local-only": {"_script": _script_with(_all, "local")},
}
