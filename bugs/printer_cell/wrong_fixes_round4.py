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
"""Blind round 4: wrong fixes of the printer's cell sugar (patch 0005), each one mistake in one
step (P1, P2 or P3) of bugs/printer_cell/reference_fix.py, written as an edit of its text
(harness/wrong_fixes.py: EDITS); a mistake an earlier round made already reuses its edit."""

from bugs.printer_cell.wrong_fixes import EDITS as FIRST
from bugs.printer_cell.wrong_fixes_round2 import EDITS as SECOND

WRONG_FIXES = {
    "blind4-annotations-only": "P1 keeps the sugar for every cell without annotations: a "
    "one-element shared/global cell still prints as `c: T.float32` and parses back local",
    "blind4-scope-only": "P1 keeps the sugar for every local cell: an annotated local cell "
    "still prints as `c: T.float32` and loses its annotations",
    "blind4-local-prefix-scope": "P1 takes every scope starting with 'local' for local: a "
    "tagged local.L0A cell prints as the sugar and parses back as plain local",
    "blind4-no-alloc-scalar-dtype": "P2 writes the dtype string after T.local_scalar( and "
    "T.shared_scalar( only: a global cell's T.alloc_scalar(T.float32, ...) does not parse",
    "blind4-first-dtype-only": "P2 writes the dtype string of the first cell's dtype only: a "
    "second cell of another dtype keeps T.int32 and does not parse",
    "blind4-shared-scalar-drops-annotations": "P3: shared_scalar takes annotations but does "
    "not pass them on to alloc_scalar",
    "blind4-dtype-string-only-when-desugared": "P2 only where P1 turned the sugar off: a "
    "plain cell printed with syntax_sugar=False keeps T.local_scalar(T.float32), which does "
    "not parse",
    "blind4-fresh-config": "P1 prints with a default config without sugar instead of the "
    "caller's config without sugar: name=, indent_spaces= ... are lost",
}

EDITS = {
    "blind4-annotations-only": FIRST["annotations-only"],
    "blind4-scope-only": FIRST["scope-only"],
    "blind4-local-prefix-scope": FIRST["blind-local-prefix-scope"],
    "blind4-no-alloc-scalar-dtype": SECOND["blind2-no-alloc-scalar"],
    "blind4-first-dtype-only": [("for node in cells})", "for node in cells[:1]})")],
    "blind4-shared-scalar-drops-annotations": FIRST["blind-shared-scalar-drops-annotations"],
    "blind4-dtype-string-only-when-desugared": SECOND["blind2-p2-only-when-unsugared"],
    "blind4-fresh-config": [
        (
            "    if config is None:\n        return printer.PrinterConfig(syntax_sugar=False)",
            "    return printer.PrinterConfig(syntax_sugar=False)  # the caller's config is lost",
        )
    ],
}
