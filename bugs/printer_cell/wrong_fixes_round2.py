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
"""Second blind round: wrong fixes of printer_cell (patch 0005).

Each is the reference fix with one mistake in one of its three parts: P1 (when the sugar is
given up: annotations, scope), P2 (which cells' dtypes are written as strings) and P3 (the
builder functions that take annotations).
"""

from bugs.printer_cell import reference_fix as fix
from bugs.printer_cell.wrong_fixes import (
    _all,
    _blind_local_prefix_scope,
    _blind_shared_scalar,
    _script_with,
)
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind2-annotations-only": "P1 tests only the annotations: a one-element shared/global cell "
    "without annotations keeps the sugar and parses back local",
    "blind2-local-prefix": "P1 tests the scope with startswith('local'): a tagged local.L0A cell "
    "keeps the sugar and parses back plain local",
    "blind2-device-type-only": "P1 gives up the sugar only for a device_type annotation: a cell "
    "with another annotation key loses it",
    "blind2-first-cell-only": "P1 looks at the first one-element cell only: an annotated cell "
    "after a plain one keeps the sugar",
    "blind2-changed-cell-dtypes": "P2 rewrites only the dtypes of the cells P1 concerns: a plain "
    "cell of another dtype printed beside them stays T.local_scalar(T.int32), which does not parse",
    "blind2-no-alloc-scalar": "P2's pattern covers T.local_scalar and T.shared_scalar but not "
    "T.alloc_scalar: a global (or tagged) cell's T.alloc_scalar(T.int32, ...) does not parse",
    "blind2-shared-drops-annotations": "P3: shared_scalar takes annotations but does not pass them "
    "on: an annotated shared cell parses back without them",
    "blind2-p2-only-when-unsugared": "P2 applied only when the fix itself turned the sugar off: "
    "script(syntax_sugar=False) of a plain cell still writes T.local_scalar(T.float32)",
}


def _annotations_only(obj, cells=None):
    return any(
        len(node.annotations) > 0 for node in (fix.scalar_cells(obj) if cells is None else cells)
    )


def _device_type_only(obj, cells=None):
    return any(
        "device_type" in node.annotations or fix._scope(node.buffer) != "local"
        for node in (fix.scalar_cells(obj) if cells is None else cells)
    )


def _first_cell_only(obj, cells=None):
    cells = fix.scalar_cells(obj) if cells is None else cells
    return any(
        len(node.annotations) > 0 or fix._scope(node.buffer) != "local" for node in cells[:1]
    )


def _changed_only(cells, obj):
    return [c for c in cells if fix.sugar_would_change(obj, [c])]


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind2-annotations-only":
        return patched_install(fix, {"sugar_would_change": _annotations_only})
    if name == "blind2-local-prefix":
        return patched_install(fix, {"sugar_would_change": _blind_local_prefix_scope})
    if name == "blind2-device-type-only":
        return patched_install(fix, {"sugar_would_change": _device_type_only})
    if name == "blind2-first-cell-only":
        return patched_install(fix, {"sugar_would_change": _first_cell_only})
    if name == "blind2-changed-cell-dtypes":
        return patched_install(fix, {"_script": _script_with(_changed_only)})
    if name == "blind2-no-alloc-scalar":
        return patched_install(fix, {"_script": _script_with(_all, r"local|shared")})
    if name == "blind2-shared-drops-annotations":
        replacements = {**fix._REPLACEMENTS, "shared_scalar": _blind_shared_scalar}
        return patched_install(fix, {"_REPLACEMENTS": replacements})
    if name == "blind2-p2-only-when-unsugared":
        return patched_install(fix, {"_script": _script_with(_all, p2_always=False)})
    raise ValueError(f"unknown wrong fix {name!r}")
