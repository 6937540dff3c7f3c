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
mistake in one step of bugs/printer_param_data/reference_fix.py."""

from bugs.printer_param_data import reference_fix as fix
from bugs.printer_param_data.wrong_fixes import _blind_not_sugar
from bugs.printer_param_data.wrong_fixes_round2 import _edits, _union_shorthand

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


PATCHES = {
    "blind4-no-decl-scalar": {"SCALAR_CALLS": fix.SCALAR_CALLS - {"decl_scalar"}},
    "blind4-sugar-not-scalar-name": {"_is_scalar_syntax": _blind_not_sugar},
    "blind4-module-wide-names": {"shorthand_by_function": _union_shorthand},
    "blind4-no-store-site": {"SITES": ("data", "load")},
    "blind4-main-attr-only": {"BUFFER_ATTRS": {"buffer"}},
    "blind4-definition-as-store": {
        "edits": lambda func, shorthand: _edits(func, shorthand, every_assign_stores=True)
    },
    "blind4-scalar-names-by-base": {
        "edits": lambda func, shorthand: _edits(func, shorthand, by_base=True)
    },
}
