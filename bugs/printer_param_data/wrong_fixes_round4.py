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
"""Blind round 4: wrong fixes of the scalar-name rule of the printer (patch 0008), each one
mistake in one step of bugs/printer_param_data/reference_fix.py, written as an edit of its text
(harness/wrong_fixes.py: EDITS); a mistake an earlier round made already reuses its edit."""

from bugs.printer_param_data.wrong_fixes import EDITS as FIRST
from bugs.printer_param_data.wrong_fixes_round2 import EDITS as SECOND

WRONG_FIXES = {
    "blind4-no-decl-scalar": "DefineScalarName is left out of BufferDecl's decl_buffer branch: "
    "a T.decl_scalar name is taken for a buffer and its load printed B[0]",
    "blind4-sugar-not-scalar-name": "DefineScalarName is left out of AllocBufferDoc's sugar: a "
    "cell written `c: T.float32 = x` is taken for a buffer and its load printed c[0]",
    "blind4-module-wide-names": "the one-element buffers are collected over the whole module, "
    "not per function: a scalar parameter of another function, of the same name, is printed "
    "A[0]",
    "blind4-no-store-site": "the BufferStore site keeps asking IsScalar(): a one-element "
    "parameter's store still prints as `C = v`",
    "blind4-main-attr-only": "the Var dispatch's `.buffer` is undone but not the released "
    "`.source`: A.source.data stays in a decl_buffer's data",
    "blind4-definition-as-store": "every assignment of a non-scalar name is taken for a store: "
    "its definition `A = T.match_buffer(a, (1,))` is printed `A[0] = ...`",
    "blind4-scalar-names-by-base": "scalar names are matched by their base name: a parameter A "
    "shadowed by a cell printed A_1 is taken for a scalar name too",
}

EDITS = {
    "blind4-no-decl-scalar": FIRST["blind-no-decl-scalar"],
    "blind4-sugar-not-scalar-name": FIRST["blind-sugar-not-scalar-name"],
    "blind4-module-wide-names": SECOND["blind2-union-shorthand"],
    "blind4-no-store-site": FIRST["blind-no-store-site"],
    "blind4-main-attr-only": SECOND["blind2-main-buffer-attr"],
    "blind4-definition-as-store": [
        ('if target.id in defined and "store" in SITES:', 'if "store" in SITES:')
    ],
    "blind4-scalar-names-by-base": [
        (
            "    names -= scalar_names(func) | subscripted",
            "    scalars = scalar_names(func)\n"
            "    names = {n for n in names if _base(n) not in {_base(s) for s in scalars}}\n"
            "    names -= scalars | subscripted",
        )
    ],
}
