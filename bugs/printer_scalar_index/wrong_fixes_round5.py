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
"""Blind round 5: wrong fixes of the printer_scalar_index reference fix (patch 0011), each an edit
of the text of bugs/printer_scalar_index/reference_fix.py (harness/wrong_fixes.py: EDITS); a
mistake an earlier round made already reuses its edit."""

from bugs.printer_scalar_index.wrong_fixes import EDITS as FIRST
from bugs.printer_scalar_index.wrong_fixes_round4 import EDITS as FOURTH

WRONG_FIXES = {
    "blind5-index-ignores-width": "IsScalarIndex tests is_zero only, not the int32 type: an "
    "access at T.int64(0) keeps the shorthand and parses back at an int32 0",
    "blind5-index-any-constant": "IsScalarIndex takes any int32 constant for the scalar index "
    "(tests IntImm and int32, not zero): `B[1]` prints as `B` and parses back as B[0]",
    "blind5-index-stores-only": "IsScalarIndex joins the BufferStore dispatch only: a load at "
    "a loop variable still prints as the bare name",
    "blind5-index-loads-only": "IsScalarIndex joins the BufferLoad dispatch only: a store at a "
    "loop variable still prints as `B = v`",
    "blind5-index-no-stmt-repr": "only the printer entry point is fixed, not a statement's "
    "repr (the FFI's own printer): repr of a loop storing B[i] still prints `B = x`",
    "blind5-index-merge-not-guarded": "the first-store merge is not told about the index: a "
    "cell's first store at T.int64(0) merges into `c: T.float32 = x` and the access cannot be "
    "printed (the marked store carries no load of its buffer)",
    "blind5-index-subscript-buffer-text": "a marked access of a buffer printed as a buffer "
    "(`A[0]`, a one-element parameter under patch 0008) is rebuilt on the whole `A[0]`, "
    "printing `A[0][i]`",
}

EDITS = {
    "blind5-index-ignores-width": FIRST["zero-of-any-dtype"],
    "blind5-index-any-constant": [
        (
            "and index.value == 0 and str(index.ty.dtype)",
            "and str(index.ty.dtype)",
        )
    ],
    "blind5-index-stores-only": FIRST["store-only"],
    "blind5-index-loads-only": FIRST["load-only"],
    "blind5-index-no-stmt-repr": FOURTH["blind4-no-stmt-repr"],
    # the marked store carries no load of its buffer: ``rewrite`` reads the buffer back from the
    # assignment's target (and lets a SyntaxError of the printed text through)
    "blind5-index-merge-not-guarded": [
        (
            "STORE, here, node.value, *node.indices)",
            "STORE, node.value, *node.indices)",
        ),
        (
            "        try:\n"
            "            tree = ast.parse(text)\n"
            "        except SyntaxError as err:\n"
            '            raise CannotPrint(f"the printed program does not parse as Python: {err}")'
            " from None\n",
            "        tree = ast.parse(text)\n",
        ),
        ("        first_index = 4 if kind == STORE else 3", "        first_index = 3"),
        (
            '        access = f"{_buffer_text(',
            '        access = kind == LOAD and f"{_buffer_text(',
        ),
        (
            '            new = f"{access} = {ast.get_source_segment(text, call.args[3])}"',
            '            access = f"{_buffer_text(parent.targets[0], text)}[{indices}]"\n'
            '            new = f"{access} = {ast.get_source_segment(text, call.args[2])}"',
        ),
    ],
    "blind5-index-subscript-buffer-text": [
        ("ast.get_source_segment(text, node.value)", "ast.get_source_segment(text, node)")
    ],
}
