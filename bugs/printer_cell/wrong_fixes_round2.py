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

Each is the text of the reference fix with one mistake in one of its three parts
(harness/wrong_fixes.py: EDITS): P1 (when the sugar is given up: annotations, scope), P2 (which
cells' dtypes are written as strings) and P3 (the builder functions that take annotations); a
mistake the first round made already reuses its edit.
"""

from bugs.printer_cell.wrong_fixes import EDITS as FIRST

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

_P2_CELLS = "for node in cells})"

EDITS = {
    "blind2-annotations-only": FIRST["annotations-only"],
    "blind2-local-prefix": FIRST["blind-local-prefix-scope"],
    "blind2-device-type-only": [
        ("len(node.annotations) > 0 or _scope", '"device_type" in node.annotations or _scope')
    ],
    "blind2-first-cell-only": [
        (
            "for node in (scalar_cells(obj) if cells is None else cells)",
            "for node in (scalar_cells(obj) if cells is None else cells)[:1]",
        )
    ],
    "blind2-changed-cell-dtypes": [
        (_P2_CELLS, "for node in cells if sugar_would_change(obj, [node])})")
    ],
    "blind2-no-alloc-scalar": [("(alloc|local|shared)_scalar", "(local|shared)_scalar")],
    "blind2-shared-drops-annotations": FIRST["blind-shared-scalar-drops-annotations"],
    "blind2-p2-only-when-unsugared": [
        (
            "        if sugar and sugar_would_change(obj, cells):\n",
            "        unsugared = sugar and sugar_would_change(obj, cells)\n        if unsugared:\n",
        ),
        (
            "        text = original(obj, config)\n",
            "        text = original(obj, config)\n"
            "        if not unsugared:\n"
            "            return text\n",
        ),
    ],
}
