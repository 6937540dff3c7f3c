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
"""Blind round 9 (blind9c): wrong fixes of patch 0008 (the scalar shorthand only for names
defined through the scalar syntax), each the reference fix's text with one step of the C++
changed."""

WRONG_FIXES = {
    "blind9-data-site-missed": (
        "the buffer Var dispatch of expr.cc keeps IsScalar(): a one-element parameter's data "
        "still prints as `A.buffer.data`"
    ),
    "blind9-store-site-missed": (
        "the BufferStore dispatch keeps IsScalar(): a store into a one-element parameter still "
        "prints as `C = v`"
    ),
    "blind9-load-site-missed": (
        "the BufferLoad dispatch keeps IsScalar(): a load of a one-element parameter still "
        "prints as the bare name"
    ),
    "blind9-decl-scalar-not-recorded": (
        "DefineScalarName is added to the alloc_buffer branch of BufferDecl but not to its "
        "decl_scalar branch: a T.decl_scalar name prints as a buffer (`B[0]`)"
    ),
    "blind9-sugar-not-recorded": (
        "AllocBufferDoc's `c: T.float32` sugar does not call DefineScalarName: the cell's "
        "accesses print as a buffer's (`c[0]`)"
    ),
    "blind9-innermost-frame-only": (
        "IsScalarName asks d->frames.back() only: a cell defined outside a loop prints as a "
        "buffer (`c[0]`) inside it"
    ),
}

_SITES = 'SITES = ("data", "store", "load")'
_ANN = "        return isinstance(ann, ast.Attribute) and isinstance(ann.value, ast.Name)"

EDITS = {
    "blind9-data-site-missed": [(_SITES, 'SITES = ("store", "load")')],
    "blind9-store-site-missed": [(_SITES, 'SITES = ("data", "load")')],
    "blind9-load-site-missed": [(_SITES, 'SITES = ("data", "store")')],
    "blind9-decl-scalar-not-recorded": [
        (
            'SCALAR_CALLS = {"local_scalar", "alloc_scalar", "shared_scalar", "decl_scalar"}',
            'SCALAR_CALLS = {"local_scalar", "alloc_scalar", "shared_scalar"}',
        )
    ],
    "blind9-sugar-not-recorded": [(_ANN, "        return False")],
    "blind9-innermost-frame-only": [
        ("                block(body, scope)", "                block(body, {})")
    ],
}
