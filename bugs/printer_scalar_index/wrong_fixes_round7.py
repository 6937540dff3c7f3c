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
"""Blind round 7 wrong fixes of the printer_scalar_index reference fix (patch 0011), each the
reference fix's text with one step changed."""

WRONG_FIXES = {
    "blind7-any-zero": "IsScalarIndex accepts any integer constant 0 (is_zero), not only an int32 "
    "0: an access at an int64 0 still prints bare and parses back at an int32 0",
    "blind7-store-only": "IsScalarIndex is added to the BufferStore dispatch only: a load of a "
    "scalar name at another index (here inside another access's index) still prints bare",
    "blind7-load-only": "IsScalarIndex is added to the BufferLoad dispatch only: a store to a "
    "scalar name at a loop variable still prints `c = v` and parses back at [0]",
    "blind7-any-constant": "IsScalarIndex tests only that the one index is an int32 constant "
    "(as_const_int), not that it is 0: an access at a constant 1 still prints bare",
    "blind7-bare-name-fallback": "the fall-through prints the access with the scalar name's own "
    "doc (GetVarDoc: `c[i]`) instead of the buffer Var's (`c.buffer[i]`), which does not parse",
    "blind7-merge-unguarded": "IsScalarIndex is added to the two dispatches but not to the "
    "merge of a cell's declaration with its first store (utils.h): `c[T.int64(0)] = x` right "
    "after the allocation still prints `c: T.float32 = x`",
}

# the merge the printer makes without the index test: a cell's allocation directly followed by
# a store to it prints as `c: T.float32 = v` whatever the store's index (modelled by giving
# that store the index the sugar stands for before the printer sees it)
_MERGE = """def _merge_first(seq, mutator):
    stmts = list(seq.seq)
    for k in range(len(stmts) - 1):
        alloc, store = stmts[k], stmts[k + 1]
        if (
            isinstance(alloc, tirx.AllocBuffer)
            and isinstance(store, tirx.BufferStore)
            and store.buffer.same_as(alloc.buffer)
            and is_shorthand(store.buffer)
            and getattr(store, "predicate", None) is None
        ):
            stmts[k + 1] = tirx.BufferStore(store.buffer, store.value, [_zero()])
    return mutator.default_mutate(tirx.SeqStmt(stmts))


def marked(obj):"""

_ZERO = (
    'return isinstance(index, tirx.IntImm) and index.value == 0 and str(index.ty.dtype) == "int32"'
)

EDITS = {
    "blind7-any-zero": [(_ZERO, "return isinstance(index, tirx.IntImm) and index.value == 0")],
    "blind7-store-only": [('SITES = ("store", "load")', 'SITES = ("store",)')],
    "blind7-load-only": [('SITES = ("store", "load")', 'SITES = ("load",)')],
    "blind7-any-constant": [
        (_ZERO, 'return isinstance(index, tirx.IntImm) and str(index.ty.dtype) == "int32"')
    ],
    "blind7-merge-unguarded": [
        ("def marked(obj):", _MERGE),
        (
            "(tirx.BufferStore, _store),",
            "(tirx.BufferStore, _store), (tirx.SeqStmt, _merge_first),",
        ),
    ],
    "blind7-bare-name-fallback": [('return f"{node.id}.{BUFFER_ATTR}"', "return node.id")],
}
