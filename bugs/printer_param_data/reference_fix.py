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
"""Reference fix: a one-element buffer prints through the scalar shorthand only when its name
was defined through the scalar syntax.

The bug. The TVMScript printer writes every buffer that ``IsScalar()`` (one element, the
default layout) through the scalar shorthand: a load prints as the bare name ``A``, a store as
``A = v``, the buffer itself as ``A.buffer`` (``A.source`` on 0.27). That is right for a name
the parser binds to the element's value: a cell written ``c: T.float32 = v``, or defined by
``T.local_scalar`` / ``T.alloc_scalar`` / ``T.shared_scalar`` / ``T.decl_scalar``. Every other
name is bound to the buffer: a parameter ``A: T.Buffer((1,), "float32")``, ``T.match_buffer``,
a view ``V = A.view(1)``. For those the shorthand does not parse: ``C[0] = A[0] + 1`` prints
as ``C = A + T.float32(1.0)``, ``T.decl_buffer((1,), data=A.data)`` (FlattenBuffer's output
for every one-element parameter) as ``data=A.buffer.data``.

Upstream change (patch 0008, ``src/tirx/script/printer``): the printer records the buffers it
defines through the scalar syntax (``DefineScalarName``: the scalar branches of ``BufferDecl``
and the ``c: T.float32`` sugar of ``AllocBufferDoc``) in the defining frame, and the three
shorthand sites ask for that (``IsScalarName``) instead of ``IsScalar()``: the ``tirx::Var``
dispatch (``.buffer``; ``PrintTIRCall``'s ``buffer_data`` prints through it), ``BufferStore``
and ``BufferLoad``.

The wheel's printer is C++ with no dispatch a Python function can take over (no IRDocsifier
function among its global functions), so this fix applies the same rule, site for site, to
the printed program's syntax tree (``tvm.runtime.script_printer._script``, which every
printing entry point calls: ``script()``, ``show()``, ``str``, ``repr``, ``print``): in each
function, with that function's buffers (decided from its IR), the names defined
through the scalar syntax are the scalar names; for every other name of a one-element buffer
that the printer took for a scalar (``IsScalar`` in the IR), a bare load ``A`` becomes
``A[0]``, a store ``A = v`` becomes ``A[0] = v`` and ``A.buffer`` / ``A.source`` becomes
``A``. What the text cannot restore is an error (``CannotPrint``), never another program: a
name to rewrite that the IR indexes with a non-constant (the wheel's printer dropped that
index), and text printed with line numbers or underlines. ``install()`` returns the undo
function.
"""

import ast
import re

import tvm_ffi

import tvm
import tvm.runtime.script_printer

_MARK = "_printer_param_data_fix"
# the calls that define a name through the scalar syntax (the name is the element's value)
SCALAR_CALLS = {"local_scalar", "alloc_scalar", "shared_scalar", "decl_scalar"}
# what the printer writes after a scalar name to reach its buffer: 0.27, main
BUFFER_ATTRS = {"source", "buffer"}
# the shorthand sites that ask whether a name is a scalar name: a buffer's data (the Var
# dispatch), a store, a load
SITES = ("data", "store", "load")


def _is_shorthand(node):
    return (
        isinstance(node, tvm.tirx.Var)
        and isinstance(node.ty, tvm.tirx.BufferType)
        and any(tvm.tirx._ffi_api.BufferIsScalar(node, flag) for flag in (True, False))
    )


def shorthand_buffers(obj):
    """The names of the buffers of ``obj`` that the printer writes through the scalar
    shorthand (``IsScalar``: one element, the default layout), however they are defined."""
    found = set()

    def visit(node):
        if _is_shorthand(node):
            found.add(node.name)
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(obj, visit, order="pre")
    return found


def indexed_shorthand(obj):
    """The names of the shorthand buffers of ``obj`` that a load or a store indexes with
    anything but a constant 0 (a loop variable, ...): the wheel's printer drops that index,
    and no rewrite of its text can put it back."""
    found = set()

    def visit(node):
        var = getattr(node, "buffer", None)
        if var is None:
            var = getattr(node, "source", None)
        indices = getattr(node, "indices", None)
        if _is_shorthand(var) and indices is not None:
            if not all(isinstance(i, tvm.tirx.IntImm) and i.value == 0 for i in indices):
                found.add(var.name)
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(obj, visit, order="pre")
    return found


def functions(obj):
    """{printed function name: PrimFunc} of ``obj`` (a PrimFunc prints as ``main`` unless its
    global symbol names it)."""
    if isinstance(obj, tvm.tirx.PrimFunc):
        return {None: obj}
    return {
        gvar.name_hint: f for gvar, f in obj.functions.items() if isinstance(f, tvm.tirx.PrimFunc)
    }


def _is_scalar_syntax(node):
    """Whether the statement ``node`` defines its target through the scalar syntax."""
    if isinstance(node, ast.AnnAssign):  # c: T.float32 [= v] (not c: T.let[...], T.Buffer)
        ann = node.annotation
        return isinstance(ann, ast.Attribute) and isinstance(ann.value, ast.Name)
    value = getattr(node, "value", None)
    return (
        isinstance(node, ast.Assign)
        and isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in SCALAR_CALLS
    )


def scalar_names(func):
    """The names ``func`` (an ast.FunctionDef) defines through the scalar syntax."""
    found = set()
    for node in ast.walk(func):
        if _is_scalar_syntax(node):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found |= {t.id for t in targets if isinstance(t, ast.Name)}
    return found


def _scoped(func):
    """(the ``ast.Name`` nodes of ``func`` that a scalar-syntax statement binds, the targets
    of the statements that define a name), both by id. A use is bound by the nearest
    definition before it in its own or an enclosing block, as TVMScript scopes a name: the
    printer reuses a name in sibling scopes (a cell ``c`` in one loop, a ``T.match_buffer``
    ``c`` in the next), and patch 0008 records the buffer, in the frame that defines it, not
    the name."""
    found, definitions = set(), set()

    def block(stmts, scope):
        scope = dict(scope)  # name -> whether its binding is scalar syntax
        for stmt in stmts:
            nested = [v for f, v in ast.iter_fields(stmt) if f in ("body", "orelse")]
            for field, value in ast.iter_fields(stmt):
                for part in value if isinstance(value, list) else [value]:
                    if field not in ("body", "orelse") and isinstance(part, ast.AST):
                        uses = [n for n in ast.walk(part) if isinstance(n, ast.Name)]
                        found.update(id(n) for n in uses if scope.get(n.id))
            targets = getattr(stmt, "targets", [getattr(stmt, "target", None)])
            for name in [t for t in targets if isinstance(t, ast.Name)]:
                if name.id not in scope or isinstance(stmt, ast.AnnAssign):
                    definitions.add(id(name))
                    scope[name.id] = _is_scalar_syntax(stmt)
                    if scope[name.id]:
                        found.add(id(name))
            for body in nested:
                block(body, scope)

    block(func.body, {a.arg: False for a in func.args.args})
    return found, definitions


def _base(name):
    return re.sub(r"_\d+$", "", name)


def edits(func, shorthand):
    """[(start, end, replacement)] in the printed text for the buffer names of ``func`` that are
    not scalar names but were printed through the shorthand."""
    params = {a.arg for a in func.args.args}
    # a name printed subscripted somewhere was not printed through the shorthand
    subscripted = {
        n.value.id
        for n in ast.walk(func)
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
    }
    names = {n.id for n in ast.walk(func) if isinstance(n, ast.Name)}
    names -= scalar_names(func) | subscripted
    # a scalar name that a sibling scope binds to another buffer (never a parameter's name: a
    # parameter is seen in every scope): each of its uses is decided by the statement that binds
    # it (below)
    scalar_bound, definitions = _scoped(func)
    uses = {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and id(n) not in scalar_bound}
    rebound = uses & scalar_names(func) - subscripted - params
    names |= rebound
    names = {n for n in names if n in shorthand or _base(n) in shorthand}
    out, defined = [], set(params)
    attrs = {id(n.value) for n in ast.walk(func) if isinstance(n, ast.Attribute)}
    for node in ast.walk(func):
        if isinstance(node, ast.Attribute) and node.attr in BUFFER_ATTRS and "data" in SITES:
            inner = node.value
            if isinstance(inner, ast.Name) and inner.id in names:
                out.append((node, inner.id))  # A.buffer -> A
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in names:
                if target.id in defined and "store" in SITES:
                    out.append((target, f"{target.id}[0]"))  # A = v -> A[0] = v
                defined.add(target.id)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and "load" in SITES:
            if node.id in names and id(node) not in attrs and node.id in defined | params:
                out.append((node, f"{node.id}[0]"))  # a load A -> A[0]
    out = [
        (n, new)
        for n, new in out
        if not (_names(n) <= rebound and (_bound(n, scalar_bound) or id(n) in definitions))
    ]
    return out


class CannotPrint(NotImplementedError):
    """What the wheel's printer wrote cannot be turned into what patch 0008 prints."""


def shorthand_by_function(obj):
    """{printed function name: the names of its shorthand buffers} of ``obj``: each function
    with its own buffers (a name of one function says nothing of another's)."""
    return {name: shorthand_buffers(func) for name, func in functions(obj).items()}


def rewrite(text, obj, shorthand=None):
    """``text`` (the printer's output for ``obj``) with the shorthand of the names that are not
    scalar names undone; ``shorthand``: ``shorthand_by_function(obj)``, computed when None."""
    funcs = functions(obj)
    if shorthand is None:
        shorthand = shorthand_by_function(obj)
    if not any(shorthand.values()):
        return text
    try:
        tree = ast.parse(text)
    except SyntaxError as err:  # printed without indentation, say: the C++ prints it anyway
        raise CannotPrint(f"the printed program does not parse as Python: {err}") from None
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    found = []
    defs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    for func in defs:
        name = None if None in funcs else func.name
        if name not in funcs:
            continue  # a function of another dialect (Relax): no TIR buffer of its own
        func_edits = edits(func, shorthand[name])
        # printed names against the IR's: a buffer the printer renamed (a match_buffer A
        # shadowing the parameter A prints as A_1) counts under its IR name
        indexed = indexed_shorthand(funcs[name])
        printed_targets = {target for node, _ in func_edits for target in _names(node)}
        lost = {t for t in printed_targets if t in indexed or _base(t) in indexed}
        if lost:
            raise CannotPrint(
                f"the wheel's printer drops the index of {', '.join(sorted(lost))} (a "
                "one-element buffer indexed by a non-constant): the reference fix of patch "
                "0008 cannot print it"
            )
        found += func_edits
    # innermost last: apply from the end of the text
    spans = []
    for node, replacement in found:
        start = starts[node.lineno - 1] + node.col_offset
        end = starts[node.end_lineno - 1] + node.end_col_offset
        spans.append((start, end, replacement))
    for start, end, replacement in sorted(set(spans), reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _bound(node, bound):
    """Whether the name an edit's node stands for (``A``, ``A.buffer``) is in ``bound``."""
    return id(node.value if isinstance(node, ast.Attribute) else node) in bound


def _names(node):
    """The buffer names an edit's node stands for (``A``, ``A.buffer``)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return {node.value.id}
    return set()


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
    """``tvm.runtime.script_printer._script`` (every printing entry point: ``script()``,
    ``show()``, ``str``, ``repr``, ``print``) with the shorthand of non-scalar names undone."""

    def script(obj, config):
        text = original(obj, config)
        if not isinstance(obj, tvm.IRModule | tvm.tirx.PrimFunc):
            return text
        shorthand = shorthand_by_function(obj)
        if not any(shorthand.values()):
            return text
        if not _plain_text(config):
            raise CannotPrint(
                "the reference fix of patch 0008 rewrites the printed program, which it cannot "
                "with line numbers, underlines or annotations"
            )
        return rewrite(text, obj, shorthand)

    setattr(script, _MARK, True)
    return script


def _repr(original):
    """``tvm.ir.base.Node.__repr__`` (``str`` and ``repr`` of IR), which on the wheel falls back
    to the FFI's own printer when ``_script`` raises: that printer is the unfixed one, so
    ``CannotPrint`` leaves ``repr`` as itself instead."""

    def __repr__(self):
        from tvm.runtime.script_printer import _script as script  # the patched one

        try:
            return script(self, None)
        except CannotPrint:
            raise
        except Exception:
            return original(self)

    return __repr__


def install():
    """Print a one-element buffer that is not a scalar name as any buffer; return the undo
    function."""
    printer = tvm.runtime.script_printer
    saved = printer._script
    if getattr(saved, _MARK, False):
        return lambda: None
    printer._script = _script(saved)
    node = tvm.ir.base.Node
    saved_repr = node.__repr__
    node.__repr__ = _repr(super(node, node).__repr__)

    def uninstall():
        printer._script = saved
        node.__repr__ = saved_repr

    return uninstall
