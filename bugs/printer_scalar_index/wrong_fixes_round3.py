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
"""Third blind round: wrong fixes of printer_scalar_index, each one small mistake in its fix
(bugs/printer_scalar_index/reference_fix.py): an edit of its text (harness/wrong_fixes.py: EDITS),
or, for the merge that keeps its own check, the fix's ``marked`` replaced (PATCHES)."""

import tvm_ffi

from bugs.printer_scalar_index import reference_fix as fix
from bugs.printer_scalar_index.wrong_fixes import EDITS as FIRST
from bugs.printer_scalar_index.wrong_fixes import _mergeable_stores
from tvm import tirx

WRONG_FIXES = {
    "blind3-int64-zero-shorthand": "IsScalarIndex tests is_zero only, not the int32 type: an "
    "access at T.int64(0) keeps the shorthand and parses back at an int32 0",
    "blind3-store-site-only": "IsScalarIndex joins the BufferStore dispatch only: a load at "
    "another index still prints as the bare name",
    "blind3-load-site-only": "IsScalarIndex joins the BufferLoad dispatch only: a store at "
    "another index still prints as B = v",
    "blind3-merge-init-unchecked": "the first-store merge in utils.h keeps its own is_zero check: "
    "a cell's first store at T.int64(0) still merges into c: T.float32 = v",
    "blind3-name-not-buffer": "the fallthrough prints the scalar name itself subscripted (the "
    "name's doc, GetVarDoc) instead of its buffer: B[i] instead of B.buffer[i]",
    "blind3-ramp-as-slice": "the load fallthrough prints its indices through BufferIndices: a "
    "Ramp index of a scalar name prints as a slice B.buffer[j:j + 2], a region",
}

EDITS = {
    "blind3-int64-zero-shorthand": FIRST["zero-of-any-dtype"],
    "blind3-store-site-only": FIRST["store-only"],
    "blind3-load-site-only": FIRST["load-only"],
    "blind3-name-not-buffer": [('return f"{node.id}.{BUFFER_ATTR}"', "return node.id")],
    "blind3-ramp-as-slice": [
        (
            '        indices = ", ".join('
            "ast.get_source_segment(text, i) for i in call.args[first_index:])",
            "        import re\n\n"
            "        segments = [\n"
            "            ast.get_source_segment(text, i) for i in call.args[first_index:]\n"
            "        ]\n"
            "        if kind == LOAD:  # BufferIndices: a stride-1 Ramp is a slice\n"
            "            segments = [\n"
            '                re.sub(r"^T\\.Ramp\\((.+), 1, (\\d+)\\)$", r"\\1:\\1 + \\2", seg)\n'
            "                for seg in segments\n"
            "            ]\n"
            '        indices = ", ".join(segments)',
        )
    ],
}


def _merge_positions(obj):
    """The first stores that the released utils.h merge takes into a cell's declaration (the
    store right after the cell's allocation, at any zero, not reading the cell)."""
    return _mergeable_stores(
        obj,
        lambda alloc, store: tirx._ffi_api.BufferIsScalar(alloc.buffer, True)
        and getattr(store, "predicate", None) is None,
    )


_REF_MARKED = fix.marked


def _marked_merge_unchecked(obj):
    merged = _merge_positions(obj)
    if not merged:
        return _REF_MARKED(obj)
    ref_store = fix._store

    def store(node, mutator):
        if any(node.same_as(m) for m in merged):
            return mutator.default_mutate(node)  # merged as it is: no mark
        return ref_store(node, mutator)

    return tvm_ffi.structural_mutate(
        obj,
        [
            (tirx.Var, lambda var, mutator: var),
            (tirx.BufferStore, store),
            (fix.tvm.ir.TensorLoad, fix._load),
        ],
    )


PATCHES = {"blind3-merge-init-unchecked": {"marked": _marked_merge_unchecked}}
