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
"""Third blind round: wrong fixes of printer_cell, each one small mistake in its reference fix
(bugs/printer_cell/reference_fix.py), written as an edit of its text (harness/wrong_fixes.py:
EDITS); each mistake an earlier round made already reuses its edit."""

from bugs.printer_cell.wrong_fixes import EDITS as FIRST
from bugs.printer_cell.wrong_fixes_round2 import EDITS as SECOND

WRONG_FIXES = {
    "blind3-annotations-only": "P1 keeps the sugar for any cell without annotations: the "
    "scope == local half of the condition is left out",
    "blind3-scope-only": "P1 keeps the sugar for any local cell: the annotations.empty() half "
    "of the condition is left out",
    "blind3-local-prefix-scope": "P1 tests the scope with a prefix (starts with 'local'), so a "
    "tagged local scope such as local.L0A still prints as the sugar",
    "blind3-local-scalar-drops-annotations": "P3: local_scalar takes annotations but does not "
    "pass them on to alloc_scalar",
    "blind3-shared-scalar-drops-annotations": "P3: shared_scalar takes annotations but does not "
    "pass them on to alloc_scalar",
    "blind3-alloc-scalar-dtype-constructor": "P2 prints the dtype string only in the "
    "local_scalar/shared_scalar branches; T.alloc_scalar (global or other scope) keeps T.float32",
    "blind3-unsugared-dtype-constructor": "P2 only where P1 turned the sugar off: a cell printed "
    "with syntax_sugar=False by the caller keeps T.<dtype> in its declaration",
}

EDITS = {
    "blind3-annotations-only": FIRST["annotations-only"],
    "blind3-scope-only": FIRST["scope-only"],
    "blind3-local-prefix-scope": FIRST["blind-local-prefix-scope"],
    "blind3-local-scalar-drops-annotations": FIRST["blind-local-scalar-drops-annotations"],
    "blind3-shared-scalar-drops-annotations": FIRST["blind-shared-scalar-drops-annotations"],
    "blind3-alloc-scalar-dtype-constructor": SECOND["blind2-no-alloc-scalar"],
    "blind3-unsugared-dtype-constructor": SECOND["blind2-p2-only-when-unsugared"],
}
