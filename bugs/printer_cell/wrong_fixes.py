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
"""Wrong fixes of the TVMScript scalar sugar report: each is the text of
bugs/printer_cell/reference_fix.py with one step changed (harness/wrong_fixes.py: EDITS): which
cells lose the sugar (P1), which dtypes are written as strings (P2), which annotations the
builder takes (P3).
"""

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

_P1 = 'len(node.annotations) > 0 or _scope(node.buffer) != "local"'
_P1_CELLS = "for node in (scalar_cells(obj) if cells is None else cells)"
_P2_SCOPES = "(alloc|local|shared)_scalar"


def _scope_scalars(passed):
    """Edits that make local_scalar and shared_scalar pass ``passed`` (text: ``, <annotations>``
    or nothing) on to alloc_scalar instead of their annotations."""
    return [
        (
            f'return alloc_scalar(dtype, "{scope}", annotations)',
            f'return alloc_scalar(dtype, "{scope}"{passed})',
        )
        for scope in ("local", "shared")
    ]


EDITS = {
    "annotations-only": [(_P1, "len(node.annotations) > 0")],
    "scope-only": [(_P1, '_scope(node.buffer) != "local"')],
    "device-type-only": [(_P1, '"device_type" in node.annotations')],
    # local_scalar and shared_scalar (T.alloc_scalar is the unchanged builder function)
    "no-builder-annotations": _scope_scalars(""),
    "first-annotation-only": _scope_scalars(
        ", dict(list(annotations.items())[:1]) if annotations else annotations"
    ),
    "first-cell-only": [
        (
            _P1_CELLS,
            "for func in (obj.functions.values() if isinstance(obj, tvm.IRModule) else [obj])\n"
            "        for node in scalar_cells(func)[:1]",
        )
    ],
    "blind-shared-scope-only": [
        (_P1, 'len(node.annotations) > 0 or _scope(node.buffer) == "shared"')
    ],
    "blind-shared-prefix-scope": [
        (_P1, 'len(node.annotations) > 0 or _scope(node.buffer).startswith("shared")')
    ],
    "blind-local-prefix-scope": [
        (_P1, 'len(node.annotations) > 0 or not _scope(node.buffer).startswith("local")')
    ],
    "blind-sugar-off-for-every-cell": [(_P1, "True")],
    "blind-shared-scalar-drops-annotations": [
        (
            'return alloc_scalar(dtype, "shared", annotations)',
            'return alloc_scalar(dtype, "shared")',
        )
    ],
    "blind-alloc-scalar-drops-annotations": [
        (
            '    "alloc_scalar": alloc_scalar,',
            '    "alloc_scalar": lambda dtype="float32", scope="global", annotations=None: (\n'
            "        alloc_scalar(dtype, scope)\n"
            "    ),",
        )
    ],
    "blind-local-scalar-drops-annotations": [
        ('return alloc_scalar(dtype, "local", annotations)', 'return alloc_scalar(dtype, "local")')
    ],
    "blind-dtype-literal-local-only": [(_P2_SCOPES, "(local)_scalar")],
}
