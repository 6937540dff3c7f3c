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
import pytest

import tvm
import tvm.script
import tvm.testing
from tvm.ir import assert_structural_equal
from tvm.script import tirx as T


@pytest.mark.xfail(
    strict=True, raises=ValueError, reason="TVMScript scalar sugar drops the cell's annotations"
)
@pytest.mark.parametrize(
    "annotations",
    [
        {"device_type": 1},
        {"pragma_note": "keep"},
        {"device_type": 1, "pragma_note": "keep"},
        {"pragma_note": "two\nlines"},
    ],
    ids=["device_type", "other_key", "two_keys", "in_metadata"],
)
@pytest.mark.parametrize("init", [True, False], ids=["with_init", "without_init"])
@pytest.mark.parametrize("scope", ["local", "shared", "global"])
def test_scalar_cell_keeps_annotations_through_print_parse(scope, annotations, init):
    """A one-element cell of any scope keeps its allocation's annotations through print -> parse"""

    @T.prim_func
    def func(x: T.float32):
        c = T.alloc_buffer((1,), "float32", scope=scope, annotations=annotations)
        if init:
            c[0] = x
        T.evaluate(c[0])

    assert_structural_equal(func, tvm.script.from_source(func.script(show_meta=True)))


@pytest.mark.xfail(
    strict=True, raises=ValueError, reason="TVMScript scalar sugar drops the cell's scope"
)
@pytest.mark.parametrize("scope", ["shared", "shared.dyn", "global", "local.L0A"])
@pytest.mark.parametrize("plain_cell_first", [False, True], ids=["alone", "after_plain_cell"])
@pytest.mark.parametrize("in_module", [False, True], ids=["func", "module"])
def test_scalar_cell_keeps_scope_through_print_parse(in_module, plain_cell_first, scope):
    """A one-element cell outside local scope keeps its scope through print -> parse, printed
    alone or in a module"""

    @T.prim_func
    def func(x: T.float32):
        if plain_cell_first:
            d = T.alloc_local((1,), "int32")
            d[0] = T.Cast("int32", x)
        c = T.alloc_buffer((1,), "float32", scope=scope)
        c[0] = x
        T.evaluate(c[0])

    obj = tvm.IRModule({"main": func}) if in_module else func
    assert_structural_equal(obj, tvm.script.from_source(obj.script()))


@pytest.mark.parametrize(
    "syntax_sugar",
    [
        True,
        pytest.param(
            False,
            marks=pytest.mark.xfail(
                strict=True,
                raises=tvm.error.DiagnosticError,
                reason="TVMScript scalar sugar off: a cell's full declaration does not parse",
            ),
        ),
    ],
    ids=["sugar", "full_declaration"],
)
@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "bool"])
def test_plain_scalar_cell_round_trips(dtype, syntax_sugar):
    """A one-element local cell without annotations round-trips, with or without the sugar"""

    @T.prim_func
    def func(x: T.int32):
        c = T.alloc_local((1,), dtype)
        c[0] = T.Cast(dtype, x)
        T.evaluate(c[0])

    assert_structural_equal(func, tvm.script.from_source(func.script(syntax_sugar=syntax_sugar)))


def test_plain_scalar_cell_prints_as_the_sugar():
    """A one-element local cell without annotations prints as the scalar sugar"""

    @T.prim_func
    def func(x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[0] = x
        T.evaluate(c[0])

    assert func.script().splitlines()[-2:] == ["    c: T.float32 = x", "    T.evaluate(c)"]


@T.prim_func
def _one_element_parameter(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
    C[0] = A[0] + T.float32(1)


@T.prim_func
def _one_element_parameter_data(A: T.Buffer((1,), "float32"), x: T.float32):
    A_1 = T.decl_buffer((1,), data=A.data, layout=None)
    A_1[0] = x


# the match_buffer shadows the parameter A: the printer names it A_1
@T.prim_func(check_well_formed=False)
def _one_element_match_buffer(A: T.Buffer((2,), "float32"), C: T.Buffer((2,), "float32")):
    with T.sblock("b"):
        A = T.match_buffer(A[1:2], (1,), "float32")
        C[1] = A[0]


@T.prim_func
def _two_one_element_parameters(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
    T.evaluate(A[0] + B[0])


@T.prim_func
def _one_element_parameter_shadowed(A: T.Buffer((1,), "float32"), C: T.Buffer((2,), "float32")):
    for i in range(2):
        A: T.float32 = A[0] + T.float32(1)
        C[i] = A


@T.prim_func
def _cell_named_a(x: T.float32):
    A: T.float32 = x
    T.evaluate(A)


@T.prim_func
def _scalar_parameter_named_a(A: T.float32, C: T.Buffer((1,), "float32")):
    C[0] = A


# a cell c in one loop, a one-element match_buffer also named c in the next
@T.prim_func(check_well_formed=False)
def _cell_and_match_buffer_of_one_name(A: T.Buffer((4,), "float32")):
    for i in range(2):
        c: T.float32 = A[i]
        A[i] = c
    for j in range(2):
        with T.sblock("b"):
            c = T.match_buffer(A[1:2], (1,), "float32")
            A[j + 2] = c[0]


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.DiagnosticError,
    reason="a one-element buffer parameter prints through the scalar shorthand",
)
@pytest.mark.parametrize(
    "func",
    [
        _one_element_parameter,
        _one_element_parameter_data,
        _one_element_match_buffer,
        _two_one_element_parameters,
        _one_element_parameter_shadowed,
        tvm.IRModule({"cell": _cell_named_a, "parameter": _one_element_parameter}),
        tvm.IRModule({"scalar": _scalar_parameter_named_a, "parameter": _one_element_parameter}),
        _cell_and_match_buffer_of_one_name,
    ],
    ids=[
        "load-store",
        "data",
        "match-buffer",
        "second-parameter",
        "shadowed-by-a-cell",
        "name-of-a-cell-elsewhere",
        "name-of-a-scalar-elsewhere",
        "match-buffer-named-as-a-cell",
    ],
)
def test_one_element_buffer_round_trips(func):
    """A one-element buffer not defined through the scalar syntax prints as any buffer"""
    # a match_buffer that is no parameter keeps the default layout (so the shorthand) only in
    # an sblock outside s_tir, which is not well-formed
    parsed = tvm.script.from_source(func.script(), check_well_formed=False)
    assert_structural_equal(func, parsed)


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="a one-element buffer parameter prints through the scalar shorthand",
)
def test_one_element_parameter_store_prints_its_index():
    """A store to a one-element buffer parameter prints with its index, as any buffer's"""

    @T.prim_func
    def func(A: T.Buffer((1,), "float32"), x: T.float32):
        A[0] = x

    assert func.script().splitlines()[-1] == "    A[0] = x"


@pytest.mark.parametrize(
    "scope",
    [
        "local",
        pytest.param(
            "shared",
            marks=pytest.mark.xfail(
                strict=True,
                raises=ValueError,
                reason="TVMScript scalar sugar drops the cell's scope",
            ),
        ),
        pytest.param(
            "global",
            marks=pytest.mark.xfail(
                strict=True,
                raises=ValueError,
                reason="TVMScript scalar sugar drops the cell's scope",
            ),
        ),
    ],
)
def test_scalar_names_round_trip(scope):
    """Names defined through any scalar syntax print and parse back, inside nested scopes too"""

    @T.prim_func
    def func(x: T.float32, C: T.Buffer((4,), "float32")):
        c = T.alloc_buffer((1,), "float32", scope=scope)
        c[0] = x * T.float32(2)
        d = T.decl_scalar("float32", C.data, "global", 3)
        for i in range(3):
            C[i] = c[0] + d
            c[0] = c[0] + T.float32(1)

    assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.parametrize(
    "addr",
    [
        "scalar_name",
        pytest.param(
            "one_element_parameter",
            marks=pytest.mark.xfail(
                strict=True,
                raises=tvm.error.DiagnosticError,
                reason="a one-element buffer parameter prints through the scalar shorthand",
            ),
        ),
    ],
)
def test_allocated_addr_load_round_trips(addr):
    """A decl_buffer's allocated_addr prints as any load, a scalar name's as the bare name"""

    @T.prim_func
    def func(A: T.Buffer((4,), "uint32"), B: T.Buffer((1,), "uint32")):
        c = T.local_scalar("uint32")
        c = A[0]
        t = T.decl_buffer(
            (4,), "uint32", scope="tmem", allocated_addr=c if addr == "scalar_name" else B[0]
        )
        A[1] = t[0]

    assert_structural_equal(func, tvm.script.from_source(func.script()))


def _scalar_name_access(kind, index):
    """A store and a load at ``index(j)`` of a scalar name (a view of a pointer, a cell, a module
    of both), or of a one-element parameter or buffer of two dimensions, which are none"""

    @T.prim_func
    def view(a: T.handle("float32"), X: T.Buffer((4,), "float32"), j: T.int32):
        B = T.decl_buffer((1,), "float32", data=a)
        B[index(j)] = B[index(j)] + X[index(j)]

    @T.prim_func
    def cell(X: T.Buffer((4,), "float32"), j: T.int32):
        c = T.alloc_local((1,), "float32")
        c[index(j)] = X[index(j)]
        X[index(j)] = c[index(j)]

    @T.prim_func
    def matrix(a: T.handle("float32"), X: T.Buffer((4,), "float32"), j: T.int32):
        B = T.decl_buffer((1, 1), "float32", data=a)
        B[0, index(j)] = B[0, index(j)] + X[index(j)]

    @T.prim_func
    def parameter(B: T.Buffer((1,), "float32"), X: T.Buffer((4,), "float32"), j: T.int32):
        B[index(j)] = B[index(j)] + X[index(j)]

    module = tvm.IRModule({"view": view, "cell": cell})
    kinds = {"view": view, "cell": cell, "matrix": matrix, "parameter": parameter}
    return {**kinds, "module": module}[kind]


@pytest.mark.xfail(
    strict=True,
    raises=(ValueError, tvm.error.DiagnosticError),
    reason="TVMScript: a scalar name drops a non-zero index",
)
@pytest.mark.parametrize(
    "index",
    [
        lambda j: j,
        lambda j: j + 1,
        lambda j: 1,
        lambda j: T.int64(0),
        lambda j: T.Ramp(j, 1, 2),
        lambda j: T.Broadcast(0, 2),
        lambda j: j - j,
        lambda j: T.uint32(0),
    ],
    ids=[
        *("variable", "expression", "constant", "int64_zero", "vector", "vector_of_zeros"),
        *("provably_zero", "uint32_zero"),
    ],
)
@pytest.mark.parametrize("kind", ["view", "cell", "parameter", "module"])
def test_scalar_name_access_keeps_its_index(kind, index):
    """A scalar name's store and load at any index but an int32 0 keep it through print -> parse"""
    if kind == "parameter" and isinstance(index(0), tvm.tirx.Ramp):
        pytest.skip("a buffer's load at a Ramp prints as a slice, which reads back as a region")
    func = _scalar_name_access(kind, index)
    assert_structural_equal(func, tvm.script.from_source(func.script()))


@pytest.mark.parametrize(
    "kind, lines",
    [
        ("view", ["    B = B + X[0]"]),
        ("cell", ["    c: T.float32 = X[0]", "    X[0] = c"]),
        ("matrix", ["    B[0, 0] = B[0, 0] + X[0]"]),
    ],
    ids=["view", "cell", "matrix"],
)
def test_scalar_name_access_at_zero_prints_the_name(kind, lines):
    """At index 0 a scalar name's store and load print as the bare name, and round-trip"""
    func = _scalar_name_access(kind, lambda j: 0)
    assert func.script().splitlines()[-len(lines) :] == lines
    assert_structural_equal(func, tvm.script.from_source(func.script()))


def test_scalar_name_statement_prints_as_in_its_function():
    """A scalar name's store printed alone, outside its function, prints as in the function"""
    func = _scalar_name_access("view", lambda j: j)
    assert str(func.body).splitlines()[-1] == func.script().splitlines()[-1].strip()


if __name__ == "__main__":
    tvm.testing.main()
