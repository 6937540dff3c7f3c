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
"""Round 8 blind wrong fixes of the printer's scalar-cell fix (blind8a): each is the reference
fix with one step of the patch (patches/0005) done wrong."""

WRONG_FIXES = {
    "blind8-annotations-only": "AllocBufferDoc keeps the sugar unless the allocation has "
    "annotations: a one-element cell of another scope still prints as the sugar",
    "blind8-scope-only": "AllocBufferDoc keeps the sugar unless the scope is not local: a local "
    "cell with annotations still prints as the sugar",
    "blind8-shared-scope-only": 'AllocBufferDoc compares the scope with "shared" instead of '
    '"local": a "global" or "shared.dyn" cell still prints as the sugar',
    "blind8-dtype-constructor-kept": "BufferDecl still prints a scalar's dtype as the T.float32 "
    "constructor in the full declaration, which the builder cannot read",
    "blind8-dtype-string-scoped-only": "BufferDecl prints the dtype as a string only for "
    "T.local_scalar and T.shared_scalar, not for T.alloc_scalar",
    "blind8-local-scalar-drops-annotations": "local_scalar takes annotations but does not hand "
    "them to alloc_scalar",
    "blind8-alloc-scalar-drops-annotations": "alloc_scalar takes annotations but does not hand "
    "them to alloc_buffer",
    "blind8-shared-scalar-local-scope": "shared_scalar, rewritten to pass annotations, passes "
    'scope "local" (copied from local_scalar)',
}

EDITS = {
    "blind8-annotations-only": [
        (
            'len(node.annotations) > 0 or _scope(node.buffer) != "local"',
            "len(node.annotations) > 0",
        )
    ],
    "blind8-scope-only": [
        (
            'len(node.annotations) > 0 or _scope(node.buffer) != "local"',
            '_scope(node.buffer) != "local"',
        )
    ],
    "blind8-shared-scope-only": [
        (
            'len(node.annotations) > 0 or _scope(node.buffer) != "local"',
            'len(node.annotations) > 0 or _scope(node.buffer) == "shared"',
        )
    ],
    "blind8-dtype-constructor-kept": [
        (
            "        for dtype in sorted({str(node.buffer.dtype) for node in cells}):",
            "        for dtype in []:",
        )
    ],
    "blind8-dtype-string-scoped-only": [
        (
            'rf"\\bT\\.(alloc|local|shared)_scalar\\(T\\.{re.escape(dtype)}\\b",',
            'rf"\\bT\\.(local|shared)_scalar\\(T\\.{re.escape(dtype)}\\b",',
        )
    ],
    "blind8-local-scalar-drops-annotations": [
        (
            'return alloc_scalar(dtype, "local", annotations)',
            'return alloc_scalar(dtype, "local")',
        )
    ],
    "blind8-alloc-scalar-drops-annotations": [
        (
            "        layout=builder.TileLayout(builder.S[1]),\n        annotations=annotations,\n",
            "        layout=builder.TileLayout(builder.S[1]),\n",
        )
    ],
    "blind8-shared-scalar-local-scope": [
        (
            'return alloc_scalar(dtype, "shared", annotations)',
            'return alloc_scalar(dtype, "local", annotations)',
        )
    ],
}
