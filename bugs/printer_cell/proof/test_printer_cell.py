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
"""One-element cells through print -> parse (patch 0005) over the dtypes and scopes its
upstream tests do not sweep (this repository only): the printer writes a cell outside local
scope or with annotations in full, ``T.alloc_scalar(<dtype>, scope=..., annotations=...)`` (or
``T.local_scalar`` / ``T.shared_scalar``), which must parse for every dtype, bool included (the
generator found the reference fix's gap there: generator/known.py's history), and still writes
a plain local cell as the sugar ``c: T.<dtype>``."""

import pytest

import tvm
import tvm.script
from tvm.script import tirx as T


@pytest.mark.xfail(
    strict=True, raises=ValueError, reason="TVMScript scalar sugar drops the cell's scope"
)
@pytest.mark.parametrize("scope", ["shared", "global", "local.L0A"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "uint32"])
def test_cell_of_every_dtype_keeps_its_scope(dtype, scope):
    """A one-element cell of any dtype outside local scope round-trips with its scope"""

    @T.prim_func
    def func(x: T.int32):
        c = T.alloc_buffer((1,), dtype, scope=scope)
        c[0] = T.Cast(dtype, x)
        T.evaluate(c[0])

    tvm.ir.assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.xfail(
    strict=True, raises=ValueError, reason="TVMScript scalar sugar drops the cell's annotations"
)
@pytest.mark.parametrize("scope", ["local", "shared", "shared.dyn", "global", "local.L0A"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16"])
def test_annotated_cell_of_every_scope_keeps_its_annotations(dtype, scope):
    """An annotated one-element cell of any scope and dtype round-trips with its annotations
    (each of the three builders, local_scalar, shared_scalar and alloc_scalar, passes them on)"""

    @T.prim_func
    def func(x: T.int32):
        c = T.alloc_buffer((1,), dtype, scope=scope, annotations={"device_type": 1, "k": "v"})
        c[0] = T.Cast(dtype, x)
        T.evaluate(c[0])

    tvm.ir.assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.parametrize("store", ["first", "in_a_loop", "none"])
@pytest.mark.parametrize("dtype", ["float32", "bool", "int8", "float16"])
def test_plain_cell_of_every_dtype_prints_as_the_sugar(dtype, store):
    """A plain local cell of any dtype, however it is stored first, is declared through the
    sugar ``c: T.<dtype>``: only the printed text tells it from the full declaration, which
    parses back to the same cell"""

    @T.prim_func
    def func(x: T.int32):
        c = T.alloc_local((1,), dtype)
        if store == "first":
            c[0] = T.Cast(dtype, x)
        if store == "in_a_loop":
            for i in range(2):
                c[0] = T.Cast(dtype, x + i)
        T.evaluate(c[0])

    lines = func.script().splitlines()
    declaration = lines[lines.index("def func(x: T.int32):") + 1]
    assert declaration.split(" = ")[0] == f"    c: T.{dtype}", declaration


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.DiagnosticError,
    reason="TVMScript scalar sugar off: a cell's full declaration does not parse",
)
@pytest.mark.parametrize("annotations", [None, {"k": "v"}], ids=["plain", "annotated"])
@pytest.mark.parametrize("scope", ["local", "shared", "global", "local.L0A"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "uint32"])
def test_full_declaration_of_every_cell_round_trips(dtype, scope, annotations):
    """Printed with syntax_sugar=False, a one-element cell of any scope and dtype, with
    annotations or without, round-trips: every full declaration writes its dtype as the builder
    takes it, not only those of the cells the sugar cannot express"""

    @T.prim_func
    def func(x: T.int32):
        c = T.alloc_buffer((1,), dtype, scope=scope, annotations=annotations)
        c[0] = T.Cast(dtype, x)
        T.evaluate(c[0])

    text = func.script(syntax_sugar=False)
    tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))


@pytest.mark.xfail(
    strict=True,
    raises=ValueError,
    reason="TVMScript scalar sugar drops the cell's annotations and scope",
)
@pytest.mark.parametrize("full", ["annotated", "shared", "global"])
@pytest.mark.parametrize("plain_dtype", ["int32", "bool", "float16"])
def test_plain_cells_beside_a_full_declaration_round_trip(plain_dtype, full):
    """Plain cells of other dtypes beside a cell printed in full (annotated, or outside local
    scope) round-trip too: whatever the printer writes for them, their dtypes parse"""
    scope = "local" if full == "annotated" else full
    annotations = {"device_type": 1} if full == "annotated" else None

    @T.prim_func
    def func(x: T.float32, A: T.Buffer((4,), "float32")):
        c = T.alloc_buffer((1,), "float32", scope=scope, annotations=annotations)
        k = T.alloc_local((1,), plain_dtype)
        b = T.alloc_local((1,), "int8")
        c[0] = x
        for i in range(4):
            k[0] = T.Cast(plain_dtype, i)
            b[0] = T.Cast("int8", k[0])
            A[i] = c[0] + T.Cast("float32", b[0])

    tvm.ir.assert_structural_equal(func, tvm.script.from_source(func.script()))
