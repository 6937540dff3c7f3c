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
"""Third blind round: wrong fixes of printer_scalar_index, each one small mistake in its fix.

The reference fix is bugs/printer_scalar_index/reference_fix.py."""

import ast
import itertools
import re

import tvm_ffi

from bugs.printer_scalar_index import reference_fix as fix
from bugs.printer_scalar_index.wrong_fixes import _reads, _zero_of_any_dtype
from harness.wrong_fixes import patched_install
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


def _merge_positions(obj):
    """The first stores that the released utils.h merge takes into a cell's declaration (the
    store right after the cell's allocation, at any zero, not reading the cell)."""
    found = []

    def visit(node):
        if isinstance(node, tirx.SeqStmt):
            body = list(node.seq)
            for first, second in itertools.pairwise(body):
                if (
                    isinstance(first, tirx.AllocBuffer)
                    and tirx._ffi_api.BufferIsScalar(first.buffer, True)
                    and isinstance(second, tirx.BufferStore)
                    and second.buffer.same_as(first.buffer)
                    and getattr(second, "predicate", None) is None
                    and _zero_of_any_dtype(second.indices)
                    and not _reads(second.value, first.buffer)
                ):
                    found.append(second)
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(obj, visit, order="pre")
    return found


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


def _name_not_buffer(node, text):
    if isinstance(node, ast.Name):
        return node.id
    return _REF_BUFFER_TEXT(node, text)


_REF_BUFFER_TEXT = fix._buffer_text
_RAMP = re.compile(r"^T\.Ramp\((.+), 1, (\d+)\)$")


def _rewrite_ramp_as_slice(text):
    """The reference ``rewrite`` with a load's stride-1 Ramp index printed as a slice."""
    while True:
        try:
            tree = ast.parse(text)
        except SyntaxError as err:
            raise fix.CannotPrint(f"the printed program does not parse as Python: {err}") from None
        found = fix._innermost(tree)
        if found is None:
            return text
        call, parent = found
        at = fix._offsets(text)
        kind = fix._marker(call)
        first_index = 4 if kind == fix.STORE else 3
        parts = []
        for i in call.args[first_index:]:
            seg = ast.get_source_segment(text, i)
            ramp = _RAMP.match(seg)
            if kind == fix.LOAD and ramp:  # BufferIndices: a stride-1 Ramp is a slice
                seg = f"{ramp.group(1)}:{ramp.group(1)} + {ramp.group(2)}"
            parts.append(seg)
        access = f"{fix._buffer_text(call.args[2], text)}[{', '.join(parts)}]"
        if kind == fix.LOAD:
            start, end, new = call, call, access
        elif isinstance(parent, ast.Assign) and parent.value is call:
            start, end = parent, parent
            new = f"{access} = {ast.get_source_segment(text, call.args[3])}"
        else:
            raise fix.CannotPrint("a marked store printed other than as an assignment")
        first = at(start.lineno, start.col_offset)
        last = at(end.end_lineno, end.end_col_offset)
        text = text[:first] + new + text[last:]


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind3-int64-zero-shorthand":
        return patched_install(fix, {"is_scalar_index": _zero_of_any_dtype})
    if name == "blind3-store-site-only":
        return patched_install(fix, {"SITES": ("store",)})
    if name == "blind3-load-site-only":
        return patched_install(fix, {"SITES": ("load",)})
    if name == "blind3-merge-init-unchecked":
        return patched_install(fix, {"marked": _marked_merge_unchecked})
    if name == "blind3-name-not-buffer":
        return patched_install(fix, {"_buffer_text": _name_not_buffer})
    if name == "blind3-ramp-as-slice":
        return patched_install(fix, {"rewrite": _rewrite_ramp_as_slice})
    raise ValueError(name)
