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
"""Blind round 6 wrong fixes of the printer_param_data reference fix (patch 0008), each the
reference fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind6-no-data-site": (
        "the buffer Var dispatch (A.buffer / A.source, buffer_data) still asks "
        "IsScalar(); only loads and stores ask for a scalar name"
    ),
    "blind6-no-store-site": (
        "BufferStore still asks IsScalar(); a store to a one-element parameter prints as A = v"
    ),
    "blind6-no-load-site": (
        "BufferLoad still asks IsScalar(); a load of a one-element parameter "
        "prints as the bare name"
    ),
    "blind6-no-decl-scalar": (
        "DefineScalarName is recorded for alloc/local/shared_scalar and the "
        "sugar but not for T.decl_scalar"
    ),
    "blind6-params-only": (
        "the shorthand is turned off for the function's parameters only; a "
        "one-element view (decl_buffer) still prints through it"
    ),
    "blind6-module-wide-names": (
        "the one-element buffers are collected over the whole module, not per function (frame)"
    ),
    "blind6-no-sugar-cell": (
        "DefineScalarName is called in BufferDecl's scalar branches but not "
        "for the c: T.float32 sugar of AllocBufferDoc"
    ),
}


EDITS = {
    "blind6-no-data-site": [('("data", "store", "load")', '("store", "load")')],
    "blind6-no-store-site": [('("data", "store", "load")', '("data", "load")')],
    "blind6-no-load-site": [('("data", "store", "load")', '("data", "store")')],
    "blind6-no-decl-scalar": [(', "decl_scalar"}', "}")],
    "blind6-params-only": [
        (
            "    return out\n",
            "    return [(node, new) for node, new in out if _names(node) <= params]\n",
        )
    ],
    "blind6-module-wide-names": [
        (
            "shorthand_buffers(func) for",
            "set().union(*map(shorthand_buffers, functions(obj).values())) for",
        )
    ],
    "blind6-no-sugar-cell": [
        (
            "return isinstance(ann, ast.Attribute) and isinstance(ann.value, ast.Name)",
            "return False",
        )
    ],
}
