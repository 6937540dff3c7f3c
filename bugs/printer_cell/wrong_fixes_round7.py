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
"""Blind round 7 wrong fixes of the printer_cell reference fix (patch 0005), each an edit of the
text of bugs/printer_cell/reference_fix.py (harness/wrong_fixes.py: EDITS); a mistake an earlier
round made already reuses its edit."""

from bugs.printer_cell.wrong_fixes import EDITS as FIRST
from bugs.printer_cell.wrong_fixes_round2 import EDITS as SECOND

WRONG_FIXES = {
    "blind7-no-scope-check": "P1 adds only stmt->annotations.empty(): a one-element shared "
    "(or global) cell without annotations still prints as the sugar and parses back local",
    "blind7-no-annotation-check": 'P1 adds only buffer.scope() == "local": an annotated local '
    "cell still prints as the sugar and loses its annotations",
    "blind7-scope-prefix": 'P1 tests the scope with StartsWith("local"): a tagged local.L0A '
    "cell prints as the sugar and parses back plain local",
    "blind7-p2-shared-only": "P2's string dtype is written only in the shared_scalar branch of "
    "BufferDecl: an annotated local cell prints T.local_scalar(T.int32, ...), which does not parse",
    "blind7-p2-not-alloc-scalar": "P2's string dtype is written for local_scalar/shared_scalar "
    "but not the alloc_scalar (global) branch: a global cell prints T.alloc_scalar(T.float32)",
    "blind7-local-drops-annotations": "P3: local_scalar takes annotations but does not pass them "
    "on to alloc_scalar, so an annotated local cell parses back without them",
    "blind7-shared-drops-annotations": "P3: shared_scalar takes annotations but does not pass "
    "them on to alloc_scalar, so an annotated shared cell parses back without them",
    "blind7-p2-only-when-p1": "P2's string dtype is applied only where P1 refused the sugar; a "
    "plain local cell printed with syntax_sugar=False still prints T.local_scalar(T.float32)",
}

EDITS = {
    "blind7-no-scope-check": FIRST["annotations-only"],
    "blind7-no-annotation-check": FIRST["scope-only"],
    "blind7-scope-prefix": FIRST["blind-local-prefix-scope"],
    "blind7-p2-shared-only": [("(alloc|local|shared)_scalar", "(shared)_scalar")],
    "blind7-p2-not-alloc-scalar": SECOND["blind2-no-alloc-scalar"],
    "blind7-local-drops-annotations": FIRST["blind-local-scalar-drops-annotations"],
    "blind7-shared-drops-annotations": FIRST["blind-shared-scalar-drops-annotations"],
    "blind7-p2-only-when-p1": SECOND["blind2-p2-only-when-unsugared"],
}
