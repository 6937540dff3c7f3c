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
"""Blind round 5: wrong fixes of the printer_cell reference fix (patch 0005), each the reference
fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind5-cell-scope-ignored": "P1 keeps the sugar whenever the allocation has no "
    "annotations, whatever the buffer's scope (a plain shared cell comes back local)",
    "blind5-cell-annotations-ignored": "P1 tests only the scope: an annotated local cell still "
    "prints as the sugar and loses its annotations",
    "blind5-cell-tagged-local": "P1 takes every scope that starts with 'local' (local.L0A) for "
    "local and keeps the sugar, which parses back as plain local",
    "blind5-cell-builder-drops-annotations": "P3: alloc_scalar takes annotations but does not "
    "pass them to alloc_buffer (T.alloc_scalar/local_scalar parse without them)",
    "blind5-cell-shared-drops-annotations": "P3: shared_scalar takes annotations but calls "
    "alloc_scalar without them",
    "blind5-cell-p2-first-cell-only": "P2 rewrites the dtype of the first cell only, leaving "
    "T.<scope>_scalar(T.int32) of a second cell of another dtype",
    "blind5-cell-p2-only-when-unsugared": "P2 runs only where P1 switched the sugar off, so a "
    "plain cell printed with syntax_sugar=False keeps T.local_scalar(T.float32)",
    "blind5-cell-config-reset": "P1's unsugared config is a fresh PrinterConfig(syntax_sugar="
    "False): the caller's other options (indent_spaces, ...) are dropped",
}

EDITS = {
    "blind5-cell-scope-ignored": [(' or _scope(node.buffer) != "local"', "")],
    "blind5-cell-annotations-ignored": [("len(node.annotations) > 0 or ", "")],
    "blind5-cell-tagged-local": [
        ('_scope(node.buffer) != "local"', 'not _scope(node.buffer).startswith("local")')
    ],
    "blind5-cell-builder-drops-annotations": [("        annotations=annotations,\n", "")],
    "blind5-cell-shared-drops-annotations": [('"shared", annotations)', '"shared")')],
    "blind5-cell-p2-first-cell-only": [
        (
            "sorted({str(node.buffer.dtype) for node in cells})",
            "[str(node.buffer.dtype) for node in cells][:1]",
        )
    ],
    "blind5-cell-p2-only-when-unsugared": [
        (
            "text = original(obj, config)\n",
            "text = original(obj, config)\n"
            "        if not (sugar and sugar_would_change(obj, cells)):\n"
            "            return text  # P2 only where P1 switched the sugar off\n",
        )
    ],
    "blind5-cell-config-reset": [
        ("if config is None:", "if True:  # the caller's options are dropped")
    ],
}
