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
"""Reference fix: a store or a load of a scalar name prints through the scalar shorthand only
at the index the parser gives it back, one int32 0; any other index prints through the buffer.

The bug. The TVMScript printer writes every store and load of a one-element buffer it prints
as a scalar name (``T.decl_scalar``, ``T.alloc_scalar``, ``T.local_scalar``, ``c: T.float32``)
through the shorthand, ``B = v`` / ``B``, whatever its index. The parser reads both back at
``[0]`` (an int32 0), so ``B[i] = B[i] + 1`` parses back as ``B[0] = B[0] + 1``, and an int64
0 comes back as an int32 0. The same holds for the merge of a cell's allocation with its
first store (``c: T.float32 = v``).

Upstream change (patch 0011, ``src/tirx/script/printer``): ``IsScalarIndex(indices)`` (one
index, an int32 constant 0) joins the scalar-name test of the ``BufferStore`` and
``BufferLoad`` dispatches of ``buffer.cc`` and the first-store merge of ``utils.h``; every
other access falls through to ``buffer[indices]``, where ``buffer`` is the doc of the buffer
``Var``: ``B.buffer[i]`` for a scalar name (``B.source[i]`` on 0.27).

The wheel's printer is C++ with no dispatch a Python function can take over, so this fix
decides from the IR which accesses the released printer would shorten wrongly (a buffer the
printer takes for a scalar, ``IsScalar`` in the IR, accessed without a predicate at any other
index), has the printer print a copy of the program in which each of them is a marker call
that carries its indices (``T.call_extern(dtype, MARK, ...)``: the printer writes them with
the names it gives every variable), and turns each marker of the printed text back into the
access through the buffer. A marked store keeps a load of its buffer among its arguments, so
that no printer merges it into a cell's declaration. It does so in
``tvm.runtime.script_printer._script``, which every printing entry point calls (``script()``,
``show()``, ``str``, ``repr``, ``print``), and sends a statement's ``repr`` (the FFI's own on
the wheel) there when an access needs it. What the text cannot express is an error
(``CannotPrint``), never another program: text printed with line numbers, underlines or
annotations, and a program that already calls a function named as a marker. ``install()``
returns the undo function.
"""

import ast

import tvm_ffi

import tvm
import tvm.runtime.script_printer
from tvm import tirx

_MARK = "_printer_scalar_index_fix"
# the extern functions a marked store and a marked load call in the copy the printer prints
STORE = "__printer_scalar_index_store"
LOAD = "__printer_scalar_index_load"
# what the wheel's printer writes after a scalar name to reach its buffer (main: "buffer")
BUFFER_ATTR = "source"
# the accesses whose index decides the shorthand: stores, loads
SITES = ("store", "load")


class CannotPrint(NotImplementedError):
    """What the wheel's printer wrote cannot be turned into what patch 0011 prints."""


def is_shorthand(var):
    """Whether the released printer writes accesses of the buffer ``var`` through the scalar
    shorthand (``IsScalar(true) || IsScalar(false)``: one element, the default layout)."""
    return (
        isinstance(var, tirx.Var)
        and isinstance(var.ty, tirx.BufferType)
        and any(tirx._ffi_api.BufferIsScalar(var, flag) for flag in (True, False))
    )


def is_scalar_index(indices):
    """Whether ``indices`` is what the parser gives a scalar name's access back: ``[0]``, one
    int32 constant 0."""
    if len(indices) != 1:
        return False
    index = indices[0]
    return isinstance(index, tirx.IntImm) and index.value == 0 and str(index.ty.dtype) == "int32"


def _zero():
    return tirx.IntImm("int32", 0)


def _needs_mark(buffer, indices, node):
    return (
        is_shorthand(buffer)
        and getattr(node, "predicate", None) is None
        and not is_scalar_index(indices)
    )


def _store(node, mutator):
    node = mutator.default_mutate(node)
    if "store" not in SITES or not _needs_mark(node.buffer, node.indices, node):
        return node
    dtype = node.buffer.ty.dtype
    here = tirx.BufferLoad(node.buffer, [_zero()])
    value = tirx.call_extern(dtype, STORE, here, node.value, *node.indices)
    return tirx.BufferStore(node.buffer, value, [_zero()])


def _load(node, mutator):
    node = mutator.default_mutate(node)
    if "load" not in SITES or not _needs_mark(node.source, node.indices, node):
        return node
    here = tirx.BufferLoad(node.source, [_zero()])
    return tirx.call_extern(node.ty.dtype, LOAD, here, *node.indices)


def marked(obj):
    """A copy of ``obj`` in which every access that needs its index printed is a marker call;
    ``obj`` itself when there is none. A buffer's own fields (its type: shape, allocated
    address) are left as they are."""
    return tvm_ffi.structural_mutate(
        obj,
        [
            (tirx.Var, lambda var, mutator: var),
            (tirx.BufferStore, _store),
            (tvm.ir.TensorLoad, _load),
        ],
    )


def _calls_marker(obj):
    found = []

    def visit(node):
        if isinstance(node, tvm.ir.StringImm) and node.value in (STORE, LOAD):
            found.append(node)
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(obj, visit, order="pre")
    return bool(found)


def _marker(node):
    """``STORE`` or ``LOAD`` when ``node`` is a printed marker call, else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    if node.func.attr != "call_extern" or len(node.args) < 3:
        return None
    name = node.args[1]
    if isinstance(name, ast.Constant) and name.value in (STORE, LOAD):
        return name.value
    return None


def _buffer_text(node, text):
    """The printed buffer of a marker's load of its buffer: ``B.source`` for a scalar name
    ``B``, ``A`` for a buffer printed as a buffer (``A[0]``)."""
    if isinstance(node, ast.Name):
        return f"{node.id}.{BUFFER_ATTR}"
    if isinstance(node, ast.Subscript):
        return ast.get_source_segment(text, node.value)
    raise CannotPrint(f"a marked access of {ast.get_source_segment(text, node)!r}")


def _offsets(text):
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return lambda line, col: starts[line - 1] + col


def _innermost(tree):
    """A marker call of ``tree`` with no marker call inside it, and its parent; None if none."""
    parents = {id(c): p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    for node in ast.walk(tree):
        if _marker(node) and not any(_marker(n) for n in ast.walk(node) if n is not node):
            return node, parents.get(id(node))
    return None


def rewrite(text):
    """``text`` (the printer's output for a marked program) with each marker call turned into
    the access it stands for: ``B.source[i] = v`` and ``B.source[i]`` (``A[i]``, ``A[i] = v``
    for a buffer printed as a buffer)."""
    while True:
        try:
            tree = ast.parse(text)
        except SyntaxError as err:
            raise CannotPrint(f"the printed program does not parse as Python: {err}") from None
        found = _innermost(tree)
        if found is None:
            return text
        call, parent = found
        at = _offsets(text)
        kind = _marker(call)
        # STORE: (dtype, STORE, its buffer, value, *indices); LOAD: (dtype, LOAD, its buffer,
        # *indices)
        first_index = 4 if kind == STORE else 3
        indices = ", ".join(ast.get_source_segment(text, i) for i in call.args[first_index:])
        access = f"{_buffer_text(call.args[2], text)}[{indices}]"
        if kind == LOAD:
            start, end = call, call
            new = access
        elif isinstance(parent, ast.Assign) and parent.value is call:
            start, end = parent, parent
            new = f"{access} = {ast.get_source_segment(text, call.args[3])}"
        else:
            raise CannotPrint("a marked store printed other than as an assignment")
        first = at(start.lineno, start.col_offset)
        last = at(end.end_lineno, end.end_col_offset)
        text = text[:first] + new + text[last:]


def _plain_text(config):
    """Whether ``config`` prints plain TVMScript that ``ast`` parses (no line numbers, no
    underlines or annotations)."""
    if config is None:
        return True
    return not (
        config.print_line_numbers
        or len(config.path_to_underline)
        or len(config.obj_to_underline)
        or len(config.path_to_annotate)
        or len(config.obj_to_annotate)
    )


def _script(original):
    """``tvm.runtime.script_printer._script`` (every printing entry point) with the accesses
    of a scalar name at any index but an int32 0 printed through the buffer."""

    def script(obj, config):
        if not isinstance(obj, tvm_ffi.core.Object):
            return original(obj, config)
        copy = marked(obj)
        if copy.same_as(obj):
            return original(obj, config)
        if not _plain_text(config):
            raise CannotPrint(
                "the reference fix of patch 0011 rewrites the printed program, which it cannot "
                "with line numbers, underlines or annotations"
            )
        if _calls_marker(obj):
            raise CannotPrint(f"the program already calls {STORE} or {LOAD}")
        return rewrite(original(copy, config))

    setattr(script, _MARK, True)
    return script


def _stmt_repr(original):
    """``repr`` of a statement, which on the wheel is the FFI's own (the released C++ printer,
    not ``_script``): through ``_script`` where an access needs its index printed."""

    def __repr__(self):
        if marked(self).same_as(self):
            return original(self)
        return tvm.runtime.script_printer._script(self, None)

    return __repr__


def install():
    """Print every access of a scalar name at an index other than an int32 0 through its
    buffer; return the undo function."""
    printer = tvm.runtime.script_printer
    saved = printer._script
    if getattr(saved, _MARK, False):
        return lambda: None
    printer._script = _script(saved)
    stmt = tirx.Stmt
    saved_repr = stmt.__dict__.get("__repr__")
    stmt.__repr__ = _stmt_repr(stmt.__repr__)

    def uninstall():
        printer._script = saved
        if saved_repr is None:
            del stmt.__repr__
        else:
            stmt.__repr__ = saved_repr

    return uninstall
