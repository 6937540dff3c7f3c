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
"""Blind round 6: wrong fixes of the printer_cell reference fix (patch 0005), each the reference
fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind6-annotations-only": (
        "the sugar is refused only for an annotated cell; a shared cell "
        "without annotations still prints as local sugar"
    ),
    "blind6-scope-only": (
        "the sugar is refused only for a non-local scope; an annotated local "
        "cell still prints as sugar"
    ),
    "blind6-local-prefix": (
        "a scope that starts with 'local' counts as local, so a tagged "
        "local.L0A cell prints as the sugar"
    ),
    "blind6-shared-drops-annotations": (
        "shared_scalar takes annotations but does not pass them on to alloc_scalar"
    ),
    "blind6-module-not-checked": (
        "the sugar check runs for a PrimFunc printed alone, not for an IRModule that holds it"
    ),
    "blind6-first-dtype-only": (
        "the dtype of a cell's full declaration is written as a string for "
        "the first cell's dtype only"
    ),
    "blind6-first-cell-only": (
        "only the first one-element cell of the program is checked for annotations and scope"
    ),
}

EDITS = {
    "blind6-annotations-only": [(' or _scope(node.buffer) != "local"', "")],
    "blind6-scope-only": [("len(node.annotations) > 0 or ", "")],
    "blind6-local-prefix": [
        ('_scope(node.buffer) != "local"', 'not _scope(node.buffer).startswith("local")')
    ],
    "blind6-shared-drops-annotations": [('"shared", annotations)', '"shared")')],
    "blind6-module-not-checked": [
        (
            "cells = scalar_cells(obj)",
            "cells = [] if isinstance(obj, tvm.IRModule) else scalar_cells(obj)  # no module",
        )
    ],
    "blind6-first-dtype-only": [
        (
            "sorted({str(node.buffer.dtype) for node in cells})",
            "[str(node.buffer.dtype) for node in cells][:1]",
        )
    ],
    "blind6-first-cell-only": [
        ("if cells is None else cells)", "if cells is None else cells)[:1]")
    ],
}
