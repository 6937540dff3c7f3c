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
"""Round 9 blind wrong fixes of the printer_cell report (blind9a).

Each is the reference fix (patch 0005: the printer writes the scalar sugar of a one-element cell
only when it is exact, the full declaration's dtype as a string, and the builder's scalar
functions take annotations) with one step of the change done wrong.
"""

WRONG_FIXES = {
    "blind9-pc-no-scope-check": "the sugar condition tests the annotations only: a shared "
    "cell without annotations is still printed as a local scalar",
    "blind9-pc-no-annotation-check": "the sugar condition tests the scope only: an annotated "
    "local cell is still printed as a plain local scalar",
    "blind9-pc-or-condition": "joins the two new conditions with || instead of &&: the sugar "
    "is kept when either the annotations are empty or the scope is local",
    "blind9-pc-shared-only": 'tests scope() != "shared" instead of == "local": a global '
    "cell is still printed as a local scalar",
    "blind9-pc-local-scalar-drops": "local_scalar takes annotations but does not pass them "
    "on to alloc_scalar",
    "blind9-pc-shared-scalar-drops": "shared_scalar takes annotations but does not pass them "
    "on to alloc_scalar",
    "blind9-pc-alloc-scalar-drops": "alloc_scalar takes annotations but does not pass them "
    "to alloc_buffer",
    "blind9-pc-dtype-local-only": "the dtype is printed as a string in T.local_scalar's "
    "declaration only: T.shared_scalar and T.alloc_scalar keep the T.float32 constructor",
}

_CONDITION = 'len(node.annotations) > 0 or _scope(node.buffer) != "local"'

EDITS = {
    "blind9-pc-no-scope-check": [(_CONDITION, "len(node.annotations) > 0")],
    "blind9-pc-no-annotation-check": [(_CONDITION, '_scope(node.buffer) != "local"')],
    "blind9-pc-or-condition": [
        (_CONDITION, 'len(node.annotations) > 0 and _scope(node.buffer) != "local"')
    ],
    "blind9-pc-shared-only": [
        (_CONDITION, 'len(node.annotations) > 0 or _scope(node.buffer) == "shared"')
    ],
    "blind9-pc-local-scalar-drops": [
        ('return alloc_scalar(dtype, "local", annotations)', 'return alloc_scalar(dtype, "local")')
    ],
    "blind9-pc-shared-scalar-drops": [
        (
            'return alloc_scalar(dtype, "shared", annotations)',
            'return alloc_scalar(dtype, "shared")',
        )
    ],
    "blind9-pc-alloc-scalar-drops": [("        annotations=annotations,\n", "")],
    "blind9-pc-dtype-local-only": [
        (
            r'rf"\bT\.(alloc|local|shared)_scalar\(T\.{re.escape(dtype)}\b"',
            r'rf"\bT\.(local)_scalar\(T\.{re.escape(dtype)}\b"',
        )
    ],
}
