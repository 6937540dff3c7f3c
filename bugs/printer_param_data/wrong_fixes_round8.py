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
"""Blind round 8 (blind8c): wrong fixes of the one-element buffer printer report (patch 0008).

Each is the reference fix's text with one step of the C++ patch changed: one of the three
shorthand sites left on IsScalar(), one of the DefineScalarName calls left out (BufferDecl's
decl_scalar branch, its alloc_buffer branch, AllocBufferDoc's ``c: T.float32`` sugar),
IsScalarName asking the innermost frame only, and the scalar names recorded by name rather
than by buffer. bugs/printer_param_data/demos_round8.py shows each.
"""

WRONG_FIXES = {
    "blind8-data-site-missed": "the tirx::Var dispatch (expr.cc, which buffer_data prints "
    "through) keeps IsScalar(): a one-element parameter's data prints as A.buffer.data",
    "blind8-store-site-missed": "the BufferStore dispatch keeps its IsScalar() test: a store "
    "into a one-element parameter prints as C = v",
    "blind8-load-site-missed": "the BufferLoad dispatch keeps its IsScalar() test: a load of a "
    "one-element parameter prints as the bare name",
    "blind8-decl-scalar-unrecorded": "BufferDecl's decl_buffer branch prints T.decl_scalar "
    "without DefineScalarName: the cell's loads and stores print indexed",
    "blind8-alloc-scalar-unrecorded": "BufferDecl's alloc_buffer branch (T.local_scalar, "
    "T.shared_scalar, T.alloc_scalar) prints without DefineScalarName",
    "blind8-sugar-unrecorded": "AllocBufferDoc's `c: T.float32` sugar defines the buffer "
    "without DefineScalarName: the cell prints indexed",
    "blind8-innermost-frame": "IsScalarName looks in d->frames.back() only: a cell defined "
    "outside a loop prints indexed inside it",
    "blind8-by-name": "the frame records the scalar names' strings, not the buffers: a "
    "one-element view that reuses a cell's name in a sibling scope prints bare",
}

EDITS = {
    "blind8-data-site-missed": [
        ('SITES = ("data", "store", "load")', 'SITES = ("store", "load")'),
    ],
    "blind8-store-site-missed": [
        ('SITES = ("data", "store", "load")', 'SITES = ("data", "load")'),
    ],
    "blind8-load-site-missed": [
        ('SITES = ("data", "store", "load")', 'SITES = ("data", "store")'),
    ],
    "blind8-decl-scalar-unrecorded": [
        (
            'SCALAR_CALLS = {"local_scalar", "alloc_scalar", "shared_scalar", "decl_scalar"}',
            'SCALAR_CALLS = {"local_scalar", "alloc_scalar", "shared_scalar"}',
        ),
    ],
    "blind8-alloc-scalar-unrecorded": [
        (
            'SCALAR_CALLS = {"local_scalar", "alloc_scalar", "shared_scalar", "decl_scalar"}',
            'SCALAR_CALLS = {"decl_scalar"}',
        ),
    ],
    "blind8-sugar-unrecorded": [
        (
            "        return isinstance(ann, ast.Attribute) and isinstance(ann.value, ast.Name)",
            "        return False",
        ),
    ],
    "blind8-innermost-frame": [
        (
            "            for body in nested:\n                block(body, scope)",
            "            for body in nested:\n                block(body, {})",
        ),
    ],
    "blind8-by-name": [
        (
            "    rebound = uses & scalar_names(func) - subscripted - params",
            "    rebound = set()",
        ),
    ],
}
