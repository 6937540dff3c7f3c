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
"""Blind round 6: wrong fixes of the scalar-name-index reference fix (patch 0011), each an edit of
the text of bugs/printer_scalar_index/reference_fix.py (harness/wrong_fixes.py: EDITS); a mistake
an earlier round made already reuses its edit."""

from bugs.printer_scalar_index.wrong_fixes import EDITS as FIRST
from bugs.printer_scalar_index.wrong_fixes_round4 import EDITS as FOURTH

WRONG_FIXES = {
    "blind6-stores-only": (
        "IsScalarIndex joins the BufferStore dispatch only; a load at i still "
        "prints as the bare name"
    ),
    "blind6-loads-only": (
        "IsScalarIndex joins the BufferLoad dispatch only; a store at i still prints as B = v"
    ),
    "blind6-zero-of-any-dtype": (
        "IsScalarIndex accepts a constant 0 of any integer type, so an "
        "int64 0 prints as the bare name"
    ),
    "blind6-main-buffer-attr": (
        "the fall-through prints a scalar name's buffer as B.buffer "
        "(main's spelling), which 0.27 does not parse"
    ),
    "blind6-store-value-as-index": (
        "the store's index list starts one argument early, so the "
        "stored value prints as its first index"
    ),
    "blind6-no-stmt-repr": (
        "only the printing entry point is changed; repr of a statement still drops the index"
    ),
}

EDITS = {
    "blind6-stores-only": FIRST["store-only"],
    "blind6-loads-only": FIRST["load-only"],
    "blind6-zero-of-any-dtype": FIRST["zero-of-any-dtype"],
    "blind6-main-buffer-attr": FOURTH["blind4-buffer-attr-main"],
    "blind6-store-value-as-index": [
        ("        first_index = 4 if kind == STORE else 3", "        first_index = 3")
    ],
    "blind6-no-stmt-repr": FOURTH["blind4-no-stmt-repr"],
}
