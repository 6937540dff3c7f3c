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
"""Blind round 5: wrong fixes of the printer_scalar_index reference fix (patch 0011)."""

import ast

from bugs.printer_scalar_index import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-index-ignores-width": "IsScalarIndex tests is_zero only, not the int32 type: an "
    "access at T.int64(0) keeps the shorthand and parses back at an int32 0",
    "blind5-index-any-constant": "IsScalarIndex takes any int32 constant for the scalar index "
    "(tests IntImm and int32, not zero): `B[1]` prints as `B` and parses back as B[0]",
    "blind5-index-stores-only": "IsScalarIndex joins the BufferStore dispatch only: a load at "
    "a loop variable still prints as the bare name",
    "blind5-index-loads-only": "IsScalarIndex joins the BufferLoad dispatch only: a store at a "
    "loop variable still prints as `B = v`",
    "blind5-index-no-stmt-repr": "only the printer entry point is fixed, not a statement's "
    "repr (the FFI's own printer): repr of a loop storing B[i] still prints `B = x`",
    "blind5-index-merge-not-guarded": "the first-store merge is not told about the index: a "
    "cell's first store at T.int64(0) merges into `c: T.float32 = x` and the access cannot be "
    "printed (the marked store carries no load of its buffer)",
    "blind5-index-subscript-buffer-text": "a marked access of a buffer printed as a buffer "
    "(`A[0]`, a one-element parameter under patch 0008) is rebuilt on the whole `A[0]`, "
    "printing `A[0][i]`",
}


def _ignores_width(indices):
    if len(indices) != 1:
        return False
    index = indices[0]
    return isinstance(index, fix.tirx.IntImm) and index.value == 0


def _any_constant(indices):
    if len(indices) != 1:
        return False
    index = indices[0]
    return isinstance(index, fix.tirx.IntImm) and str(index.ty.dtype) == "int32"


def _store_without_here(node, mutator):
    """``fix._store`` whose marker carries no load of its buffer: the buffer is read back from
    the assignment's target."""
    tirx = fix.tirx
    node = mutator.default_mutate(node)
    if not fix._needs_mark(node.buffer, node.indices, node):
        return node
    value = tirx.call_extern(node.buffer.ty.dtype, fix.STORE, node.value, *node.indices)
    return tirx.BufferStore(node.buffer, value, [fix._zero()])


def _rewrite_target_buffer(text):
    """``fix.rewrite`` for markers of ``_store_without_here``: (dtype, STORE, value,
    *indices), the buffer being the assignment's target."""
    while True:
        tree = ast.parse(text)
        found = fix._innermost(tree)
        if found is None:
            return text
        call, parent = found
        at = fix._offsets(text)
        kind = fix._marker(call)
        if kind == fix.LOAD:
            indices = ", ".join(ast.get_source_segment(text, i) for i in call.args[3:])
            new = f"{fix._buffer_text(call.args[2], text)}[{indices}]"
            start = end = call
        elif isinstance(parent, ast.Assign) and parent.value is call:
            indices = ", ".join(ast.get_source_segment(text, i) for i in call.args[3:])
            target = fix._buffer_text(parent.targets[0], text)
            new = f"{target}[{indices}] = {ast.get_source_segment(text, call.args[2])}"
            start = end = parent
        else:
            raise fix.CannotPrint("a marked store printed other than as an assignment")
        first = at(start.lineno, start.col_offset)
        last = at(end.end_lineno, end.end_col_offset)
        text = text[:first] + new + text[last:]


def _whole_subscript(node, text):
    if isinstance(node, ast.Name):
        return f"{node.id}.{fix.BUFFER_ATTR}"
    if isinstance(node, ast.Subscript):
        return ast.get_source_segment(text, node)
    raise fix.CannotPrint(f"a marked access of {ast.get_source_segment(text, node)!r}")


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind5-index-ignores-width":
        return patched_install(fix, {"is_scalar_index": _ignores_width})
    if name == "blind5-index-any-constant":
        return patched_install(fix, {"is_scalar_index": _any_constant})
    if name == "blind5-index-stores-only":
        return patched_install(fix, {"SITES": ("store",)})
    if name == "blind5-index-loads-only":
        return patched_install(fix, {"SITES": ("load",)})
    if name == "blind5-index-no-stmt-repr":
        return patched_install(fix, {"_stmt_repr": lambda original: original})
    if name == "blind5-index-merge-not-guarded":
        return patched_install(
            fix, {"_store": _store_without_here, "rewrite": _rewrite_target_buffer}
        )
    if name == "blind5-index-subscript-buffer-text":
        return patched_install(fix, {"_buffer_text": _whole_subscript})
    raise ValueError(f"unknown wrong fix {name!r}")
