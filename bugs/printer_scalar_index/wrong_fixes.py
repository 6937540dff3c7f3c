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
"""Wrong fixes of the scalar-name index report, each a mistake in one step of patch 0011 (which
accesses keep the shorthand; at which sites; for which buffers): the text of
bugs/printer_scalar_index/reference_fix.py with that step changed (harness/wrong_fixes.py:
EDITS), or, where the mistake adds a step of its own (the released merge, the element count),
the reference fix with one of its functions replaced (PATCHES)."""

import ast
import itertools

import tvm_ffi

import tvm
from bugs.printer_scalar_index import reference_fix as fix
from tvm import tirx

WRONG_FIXES = {
    "store-only": "only the BufferStore dispatch tests the index; a load of a scalar name at any "
    "index still prints as the bare name",
    "load-only": "only the BufferLoad dispatch tests the index; a store at any index still prints "
    "as `c = v`",
    "any-constant": "the shorthand for any integer constant index (is_const_int, not is_zero): "
    "`B[1]` prints as `B`",
    "variable-only": "only an index that is a bare variable prints through the buffer; an "
    "expression, a constant or a Ramp keeps the shorthand",
    "zero-of-any-dtype": "is_zero alone: an int64 0 keeps the shorthand and parses back as an "
    "int32 0",
    "proves-zero": "the index is proved equal to 0 (an analyzer) instead of being the constant: "
    "`j - j` and an int64 0 keep the shorthand",
    "scalar-lanes-only": "only a scalar index is tested: a vector index (a Ramp) keeps the "
    "shorthand",
    "no-merge-site": "both dispatches test the index, the merge of a cell's allocation with its "
    "first store (utils.h) does not: `c[T.int64(0)] = v` prints as `c: T.float32 = v`",
    "cells-only": "the index is tested for cells only: a view of a pointer parameter "
    "(T.decl_scalar) keeps the shorthand at any index",
    "views-only": "the index is tested for views of a pointer (T.decl_scalar) only: a cell keeps "
    "the shorthand at any index",
    "element-count": "the shorthand is decided by the element count, not IsScalar: a "
    "one-element buffer of two dimensions at [0, 0] prints as its bare name",
}

_REFERENCE = {"marked": fix.marked, "rewrite": fix.rewrite, "_store": fix._store}

_ZERO = (
    'return isinstance(index, tirx.IntImm) and index.value == 0 and str(index.ty.dtype) == "int32"'
)
_SITES = 'SITES = ("store", "load")'


def _only_defined_by(kind):
    """Edits that restrict the index test to the buffers ``kind`` statements define."""
    return [
        (
            "        is_shorthand(buffer)\n",
            "        is_shorthand(buffer)\n        and any(buffer.same_as(b) for b in _DEFINED)\n",
        ),
        (
            "    return tvm_ffi.structural_mutate(\n",
            "    global _DEFINED\n"
            "    _DEFINED = []\n\n"
            "    def define(node):\n"
            f"        if isinstance(node, tirx.{kind}):\n"
            "            _DEFINED.append(node.buffer)\n"
            "        return tvm_ffi.WalkResult.ADVANCE\n\n"
            '    tvm_ffi.structural_walk(obj, define, order="pre")\n'
            "    return tvm_ffi.structural_mutate(\n",
        ),
    ]


EDITS = {
    "store-only": [(_SITES, 'SITES = ("store",)')],
    "load-only": [(_SITES, 'SITES = ("load",)')],
    "any-constant": [(_ZERO, "return isinstance(index, tirx.IntImm)")],
    "variable-only": [
        (
            "    if len(indices) != 1:\n        return False",
            "    if len(indices) != 1:\n        return True",
        ),
        (_ZERO, "return not isinstance(index, tirx.Var)"),
    ],
    "zero-of-any-dtype": [(_ZERO, "return isinstance(index, tirx.IntImm) and index.value == 0")],
    "proves-zero": [
        (
            _ZERO,
            "from tvm.sym.analyzer import Analyzer\n\n"
            "    return Analyzer().can_prove_equal(index, 0)",
        )
    ],
    "scalar-lanes-only": [
        (
            "    index = indices[0]\n",
            "    index = indices[0]\n    if index.ty.dtype.lanes > 1:\n        return True\n",
        )
    ],
    "cells-only": _only_defined_by("AllocBuffer"),
    "views-only": _only_defined_by("DeclBuffer"),
}


def _zero_of_any_dtype(indices):
    return len(indices) == 1 and isinstance(indices[0], tirx.IntImm) and indices[0].value == 0


def _reads(value, buffer):
    """Whether ``value`` loads from ``buffer``."""
    hits = []

    def visit(node):
        if getattr(node, "source", None) is not None and node.source.same_as(buffer):
            hits.append(node)
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(value, visit, order="pre")
    return bool(hits)


def _mergeable_stores(obj, also=lambda alloc, store: True):
    """The stores that follow their cell's allocation at a 0 of any dtype, not reading it: the
    released merge's condition (and ``also(alloc, store)``)."""
    found = []

    def visit(node):
        if isinstance(node, tirx.SeqStmt):
            for alloc, store in itertools.pairwise(node.seq):
                if (
                    isinstance(alloc, tirx.AllocBuffer)
                    and isinstance(store, tirx.BufferStore)
                    and store.buffer.same_as(alloc.buffer)
                    and _zero_of_any_dtype(store.indices)
                    and not _reads(store.value, store.buffer)
                    and also(alloc, store)
                ):
                    found.append(store)
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(obj, visit, order="pre")
    return found


def _marked_without_merge_site(obj):
    stores = _mergeable_stores(obj)

    def store(node, mutator):
        if any(node.same_as(s) for s in stores):
            return mutator.default_mutate(node)  # left to the released merge
        return _REFERENCE["_store"](node, mutator)

    fix._store = store
    try:
        return _REFERENCE["marked"](obj)
    finally:
        fix._store = _REFERENCE["_store"]


# the element-count variant: a one-element buffer of more dimensions at all zeros is printed
# through the shorthand too (the wheel never does: its markers ask for it)
SHORT_STORE = "__printer_scalar_index_short_store"
SHORT_LOAD = "__printer_scalar_index_short_load"


def _one_element(var):
    if not (isinstance(var, tirx.Var) and isinstance(var.ty, tirx.BufferType)):
        return False
    shape = list(var.ty.shape)
    return len(shape) > 1 and all(isinstance(s, tirx.IntImm) and s.value == 1 for s in shape)


def _all_zero(indices):
    return all(isinstance(i, tirx.IntImm) and i.value == 0 for i in indices)


def _marked_by_element_count(obj):
    def store(node, mutator):
        if _one_element(node.buffer) and _all_zero(node.indices):
            node = mutator.default_mutate(node)
            value = tirx.call_extern(node.buffer.ty.dtype, SHORT_STORE, node.value)
            return tirx.BufferStore(node.buffer, value, list(node.indices))
        return fix._store(node, mutator)

    def load(node, mutator):
        if _one_element(node.source) and _all_zero(node.indices):
            return tirx.call_extern(node.ty.dtype, SHORT_LOAD, mutator.default_mutate(node))
        return fix._load(node, mutator)

    return tvm_ffi.structural_mutate(
        obj,
        [
            (tirx.Var, lambda var, mutator: var),
            (tirx.BufferStore, store),
            (tvm.ir.TensorLoad, load),
        ],
    )


def _rewrite_short(text):
    while True:
        tree = ast.parse(text)
        found = None
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                call = node.value
                if getattr(call.func, "attr", "") == "call_extern" and len(call.args) == 3:
                    if getattr(call.args[1], "value", None) == SHORT_STORE:
                        name = ast.get_source_segment(text, node.targets[0].value)
                        found = (node, f"{name} = {ast.get_source_segment(text, call.args[2])}")
                        break
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "call_extern":
                if len(node.args) == 3 and getattr(node.args[1], "value", None) == SHORT_LOAD:
                    found = (node, ast.get_source_segment(text, node.args[2].value))
                    break
        if found is None:
            return _REFERENCE["rewrite"](text)
        node, new = found
        lines = text.splitlines(keepends=True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))
        first = starts[node.lineno - 1] + node.col_offset
        last = starts[node.end_lineno - 1] + node.end_col_offset
        text = text[:first] + new + text[last:]


PATCHES = {
    "no-merge-site": {"marked": _marked_without_merge_site},
    "element-count": {"marked": _marked_by_element_count, "rewrite": _rewrite_short},
}
