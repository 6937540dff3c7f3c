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
"""What a scalar assigned in the host region of a TIRx prim_func parses into.

Three spellings of ``c = v`` above a ``T.thread_binding`` loop:

* ``c: T.float32 = v``          -> a mutable cell: a one-element ``local`` AllocBuffer and a
  BufferStore of ``v`` into it;
* ``c: T.let[T.float32] = v``   -> an immutable binding: a ``Bind`` of a typed Var, no buffer;
* ``c = v``                     -> a cell in this TVM; newer TVMScript parsers make it a binding.

These tests pin the parser's current behaviour (they are not bug tests): the cell form is what
later lowering must keep on the host (see test_tir_transform_lower_tvm_builtin_alloc_scope.py).
"""

import functools

import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T

N = 8

# (dtype, value written by the host): float16/int64 change the cell's size and type code.
DTYPES = [("float32", 1.5), ("float16", 0.5), ("int32", 3), ("int64", -7)]

# The load node is tvm.ir.TensorLoad (buffer in `.source`) since the Buffer -> Tensor rename
# (0.27) and tvm.tirx.BufferLoad (buffer in `.buffer`) before it (TVM main of 2026-08).
_LOAD_CLASS = getattr(tvm.ir, "TensorLoad", None) or tvm.tirx.BufferLoad


def _loaded_buffer(load):
    return load.source if hasattr(load, "source") else load.buffer


def _host_stmts(func):
    """The statements of the function body's top level (the host region)."""
    body = func.body
    return list(body.seq) if isinstance(body, tvm.tirx.SeqStmt) else [body]


def _walk(node, callback):
    """Call ``callback`` on every IR object reachable from ``node``, in pre-order, through
    the fields that TVM's object reflection declares for each type."""
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, tvm.ir.Map):
            children = list(item.values())
        elif isinstance(item, tvm.ir.Array | list | tuple):
            children = list(item)
        elif isinstance(item, tvm.runtime.Object):
            callback(item)
            children = [getattr(item, name) for name in _field_names(type(item))]
        else:
            continue
        pending.extend(reversed(children))


@functools.cache
def _field_names(cls):
    """Reflected field names of an IR object type and its ancestors (source spans left out)."""
    names, info = [], cls.__tvm_ffi_type_info__
    while info is not None:
        names[:0] = [field.name for field in info.fields if field.name != "span"]
        info = info.parent_type_info
    return tuple(names)


def _collect(node, cls):
    found = []
    _walk(node, lambda item: found.append(item) if isinstance(item, cls) else None)
    return found


def _reads(node, buffer):
    """Whether `node` contains a load from `buffer`."""
    return any(_loaded_buffer(load).same_as(buffer) for load in _collect(node, _LOAD_CLASS))


def _assert_round_trip(func):
    """print -> parse gives back the same function, exactly."""
    reparsed = tvm.script.from_source(func.script())
    tvm.ir.assert_structural_equal(reparsed, func)


def _classify_host_scalar(func):
    """Describe the host-level `c` of `func`: (kind, buffer or var, dtype, initial value).

    kind is "cell" or "binding".

    Asserts the exact shape of each form: a cell is AllocBuffer(local, (1,)) followed by a
    BufferStore of the initial value at index 0; a binding is a Bind. Either is followed by the
    kernel loop, which reads `c`.
    """
    stmts = _host_stmts(func)
    if isinstance(stmts[0], tvm.tirx.AllocBuffer):
        alloc, store, loop = stmts
        buf = alloc.buffer
        assert buf.scope() == "local"
        assert [int(extent) for extent in buf.shape] == [1]
        assert isinstance(store, tvm.tirx.BufferStore)
        assert store.buffer.same_as(buf)
        assert [int(index) for index in store.indices] == [0]
        assert isinstance(loop, tvm.tirx.For)
        assert _reads(loop, buf), "the kernel loop does not read the cell"
        assert len(_collect(func.body, tvm.tirx.AllocBuffer)) == 1
        return "cell", buf, str(buf.dtype), store.value
    bind, loop = stmts
    assert isinstance(bind, tvm.tirx.Bind)
    assert isinstance(loop, tvm.tirx.For)
    uses = _collect(loop, tvm.ir.Var)
    assert any(var.same_as(bind.var) for var in uses), "the kernel loop does not use the binding"
    assert not _collect(func.body, tvm.tirx.AllocBuffer), "a binding allocates no buffer"
    return "binding", bind.var, str(bind.var.ty), bind.value


def _annotated(dtype, value):
    ty = getattr(T, dtype)

    @T.prim_func
    def func(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype)):
        c: ty = ty(value)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] + c

    return func


def _plain(dtype, value):
    ty = getattr(T, dtype)

    @T.prim_func
    def func(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype)):
        c = ty(value)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] + c

    return func


def _let(dtype, value):
    ty = getattr(T, dtype)

    @T.prim_func
    def func(B: T.Buffer((N,), dtype), C: T.Buffer((N,), dtype)):
        c: T.let[ty] = ty(value)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] + c

    return func


@pytest.mark.parametrize("dtype, value", DTYPES)
def test_annotated_host_scalar_is_local_cell(dtype, value):
    func = _annotated(dtype, value)
    kind, buf, cell_dtype, init = _classify_host_scalar(func)
    assert kind == "cell"
    assert buf.name == "c"
    assert cell_dtype == dtype
    tvm.ir.assert_structural_equal(init, tvm.tirx.const(value, dtype))
    _assert_round_trip(func)


@pytest.mark.parametrize("dtype, value", DTYPES)
def test_let_host_scalar_is_binding(dtype, value):
    func = _let(dtype, value)
    kind, var, var_dtype, init = _classify_host_scalar(func)
    assert kind == "binding"
    assert var.name == "c"
    assert var_dtype == dtype
    tvm.ir.assert_structural_equal(init, tvm.tirx.const(value, dtype))
    _assert_round_trip(func)


@pytest.mark.parametrize("dtype, value", DTYPES)
def test_plain_host_scalar(dtype, value):
    func = _plain(dtype, value)
    # A cell in 0.27 and the 2026-08 tree, a binding in later TVMScript parsers: pin only what
    # both forms guarantee (name, type, value reaching the kernel) plus the exact round trip.
    kind, target, target_dtype, init = _classify_host_scalar(func)
    assert kind in ("cell", "binding")
    assert target.name == "c"
    assert target_dtype == dtype
    tvm.ir.assert_structural_equal(init, tvm.tirx.const(value, dtype))
    _assert_round_trip(func)


def test_report_spelling_is_cell():
    """The report's own spelling, written out literally, is the same cell as above."""

    @T.prim_func
    def func(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        c: T.float32 = T.float32(0.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] + c

    assert _classify_host_scalar(func)[0] == "cell"
    tvm.ir.assert_structural_equal(func, _annotated("float32", 0.0))


def test_annotated_and_let_differ_only_in_cell_vs_binding():
    """The two explicit spellings are never parsed into the same IR."""
    annotated = _annotated("float32", 1.5)
    let = _let("float32", 1.5)
    with pytest.raises(ValueError):
        tvm.ir.assert_structural_equal(annotated, let)
    assert _classify_host_scalar(annotated)[0] == "cell"
    assert _classify_host_scalar(let)[0] == "binding"


def test_cell_declared_inside_kernel_stays_in_kernel():
    @T.prim_func
    def func(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        for i in T.thread_binding(N, thread="threadIdx.x"):
            c: T.float32 = T.float32(2.0)
            c = c + B[i]
            C[i] = c

    (loop,) = _host_stmts(func)
    assert isinstance(loop, tvm.tirx.For)
    assert str(loop.thread_binding.thread_tag) == "threadIdx.x"
    (alloc,) = _collect(loop.body, tvm.tirx.AllocBuffer)
    buf = alloc.buffer
    assert buf.scope() == "local"
    assert [int(extent) for extent in buf.shape] == [1]
    assert str(buf.dtype) == "float32"
    stores = [s for s in _collect(loop.body, tvm.tirx.BufferStore) if s.buffer.same_as(buf)]
    assert len(stores) == 2
    tvm.ir.assert_structural_equal(stores[0].value, tvm.tirx.const(2.0, "float32"))
    assert _reads(stores[1].value, buf), "`c = c + B[i]` reads the cell"
    _assert_round_trip(func)


def test_host_cell_reassigned_before_launch():
    @T.prim_func
    def func(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        c: T.float32 = T.float32(1.0)
        c = c * T.float32(3.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] + c

    alloc, init, update, loop = _host_stmts(func)
    assert isinstance(alloc, tvm.tirx.AllocBuffer)
    buf = alloc.buffer
    assert buf.scope() == "local"
    assert [int(extent) for extent in buf.shape] == [1]
    for store in (init, update):
        assert isinstance(store, tvm.tirx.BufferStore)
        assert store.buffer.same_as(buf)
        assert [int(index) for index in store.indices] == [0]
    tvm.ir.assert_structural_equal(init.value, tvm.tirx.const(1.0, "float32"))
    # the reassignment is a second host store that reads the cell, not a new variable
    assert isinstance(update.value, tvm.tirx.Mul)
    assert _reads(update.value, buf)
    tvm.ir.assert_structural_equal(update.value.b, tvm.tirx.const(3.0, "float32"))
    assert isinstance(loop, tvm.tirx.For)
    assert _reads(loop, buf)
    assert len(_collect(func.body, tvm.tirx.AllocBuffer)) == 1
    _assert_round_trip(func)


def test_handle_annotation_is_rejected():
    """A pointer cannot be a scalar cell: the parser points the user at T.let[...]."""
    with pytest.raises(tvm.error.DiagnosticError) as err:

        @T.prim_func
        def func(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
            h: T.handle = B.data
            T.evaluate(T.call_extern("int32", "consume", h))
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = B[i]

    message = str(err.value)
    # Both diagnostics this check has had ("Use T.let[...] for non-PrimType annotations" and
    # "handle type cannot be used as scalar annotation; use T.let[T.handle]") name the fix.
    assert "T.let[" in message
    assert "annotation" in message


def test_buffer_annotation_is_rejected():
    with pytest.raises(tvm.error.DiagnosticError) as err:

        @T.prim_func
        def func(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
            h: T.Buffer((N,), "float32") = B
            for i in T.thread_binding(N, thread="threadIdx.x"):
                C[i] = h[i]

    assert "Use T.let[...] for non-PrimType annotations" in str(err.value)


def test_let_handle_annotation_is_binding():
    """The spelling the diagnostic suggests: a Bind of a pointer Var, no cell."""

    @T.prim_func
    def func(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        h: T.let[T.handle("float32")] = B.data
        T.evaluate(T.call_extern("int32", "consume", h))
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i]

    bind, use, loop = _host_stmts(func)
    assert isinstance(bind, tvm.tirx.Bind)
    assert bind.var.name == "h"
    assert isinstance(bind.var.ty, tvm.ir.PointerType)
    tvm.ir.assert_structural_equal(bind.value, func.params[0].data)  # B.data
    assert isinstance(use, tvm.tirx.Evaluate)
    assert any(var.same_as(bind.var) for var in _collect(use, tvm.ir.Var))
    assert isinstance(loop, tvm.tirx.For)
    assert not _collect(func.body, tvm.tirx.AllocBuffer)
    _assert_round_trip(func)


if __name__ == "__main__":
    tvm.testing.main()
