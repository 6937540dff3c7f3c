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
"""A scalar name's access (patch 0011) at the edges of the index test, beside calls of
external functions, and under every printing configuration (proof only).

Mutants of bugs/printer_scalar_index/reference_fix.py (scripts/mutants.py) survived every other
test:
  - the index test loosened to ``value <= 0`` or ``dtype <= "int32"``: a constant -1, or an
    int16 0, is taken for the int32 0 the parser gives back, and prints as the bare name; so
    is a uint32 0 by a test of the index type's width alone;
  - the test of a printed marker loosened (``and`` -> ``or``): the program's own call of an
    external function is taken for a marker and rewritten;
  - the refusal of text that cannot be rewritten (with line numbers, underlines or
    annotations, or that is no Python, e.g. without indentation) loosened: the underline or
    the annotation asked for is silently dropped, or a SyntaxError comes out. The function's
    body is printed too: with patch 0008's stand-in installed below (as a mutant run does),
    that stand-in refuses any such configuration for a function, not for a statement.
"""

import pytest
from tvm_ffi.access_path import AccessPath

import tvm
import tvm.testing
from tvm.script import tirx as T

PHRASE = "TVMScript: a scalar name drops a non-zero index"
BUG = pytest.mark.xfail(
    strict=True, raises=(ValueError, tvm.error.DiagnosticError, NotImplementedError), reason=PHRASE
)


def _access(kind, site, index):
    """A store and/or a load (``site``) at ``index(j)`` of a one-element buffer of ``kind``: a
    view of a pointer parameter (``T.decl_scalar``) or a local cell (``c: T.float32``)."""

    if kind == "view":

        @T.prim_func
        def func(a: T.handle("float32"), X: T.Buffer((4,), "float32"), j: T.int32):
            B = T.decl_buffer((1,), "float32", data=a)
            if site != "load":
                B[index(j)] = X[j]
            if site != "store":
                X[j] = B[index(j)]

    else:

        @T.prim_func
        def func(X: T.Buffer((4,), "float32"), j: T.int32):
            B = T.alloc_buffer((1,), "float32", scope="local")
            if site != "load":
                B[index(j)] = X[j]
            if site != "store":
                X[j] = B[index(j)]

    return func


def _round_trip(obj):
    tvm.ir.assert_structural_equal(obj, tvm.script.from_source(obj.script()))


CONSTANTS = {
    "minus_one": lambda j: -1,
    "int16_zero": lambda j: T.int16(0),
    "int8_zero": lambda j: T.int8(0),
    "uint32_zero": lambda j: T.uint32(0),
}


@BUG
@pytest.mark.parametrize("constant", CONSTANTS)
@pytest.mark.parametrize("site", ["store", "load"])
def test_constant_index_other_than_int32_zero_is_kept(site, constant):
    """A constant index but an int32 0 (-1, a narrower or unsigned 0) survives print -> parse"""
    _round_trip(_access("view", site, CONSTANTS[constant]))


@T.prim_func
def _extern_in_store(a: T.handle("float32"), X: T.Buffer((4,), "float32"), j: T.int32):
    B = T.decl_buffer((1,), "float32", data=a)
    B[j] = T.call_extern("float32", "ext", X[j])


@T.prim_func
def _extern_of_load(a: T.handle("float32"), X: T.Buffer((4,), "float32"), j: T.int32):
    B = T.decl_buffer((1,), "float32", data=a)
    X[j] = T.call_extern("float32", "ext", B[j], j)


@T.prim_func
def _extern_statement(a: T.handle("float32"), X: T.Buffer((4,), "float32"), j: T.int32):
    B = T.decl_buffer((1,), "float32", data=a)
    X[j] = B[j]
    T.evaluate(T.call_extern("int32", "ext", j))


EXTERN_CALLS = {
    "stored": _extern_in_store,
    "of_a_load": _extern_of_load,
    "statement": _extern_statement,
}


@BUG
@pytest.mark.parametrize("where", EXTERN_CALLS)
def test_external_call_beside_the_access_is_kept(where):
    """A call of an external function beside a scalar name's access survives print -> parse"""
    _round_trip(EXTERN_CALLS[where])


def _store_in_a_loop(kind):
    """``B[j] = X[j]`` in a loop (so that the text of the body needs its indentation), ``B`` a
    scalar name of ``kind``."""

    if kind == "view":

        @T.prim_func
        def func(a: T.handle("float32"), X: T.Buffer((4,), "float32"), j: T.int32):
            B = T.decl_buffer((1,), "float32", data=a)
            for i in range(2):
                B[j] = X[j]

    else:

        @T.prim_func
        def func(X: T.Buffer((4,), "float32"), j: T.int32):
            B = T.alloc_buffer((1,), "float32", scope="local")
            for i in range(2):
                B[j] = X[j]

    return func


def _store_path(printed):
    """The access path of the store from the printed object: the function or its body."""
    root = AccessPath.root() if printed == "body" else AccessPath.root().attr("body")
    return root.attr("seq").array_item(1).attr("body")


# what to print with (given the store and its path), and what the text must show of it
CONFIGS = {
    "line_numbers": (lambda store, path: {"print_line_numbers": True}, "\n2 "),
    "no_indentation": (lambda store, path: {"indent_spaces": 0}, "\nB"),
    "path_to_underline": (
        lambda store, path: {"path_to_underline": [path.attr("indices").array_item(0)]},
        "^",
    ),
    "obj_to_underline": (lambda store, path: {"obj_to_underline": [store]}, "^"),
    "path_to_annotate": (lambda store, path: {"path_to_annotate": {path: "note"}}, "# note"),
    "obj_to_annotate": (lambda store, path: {"obj_to_annotate": {store: "note"}}, "# note"),
}


CASES = [
    pytest.param(config, printed, id=f"{config}-{printed}")
    for config in CONFIGS
    for printed in ["function", "body"]
]


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=PHRASE)
@pytest.mark.parametrize("kind", ["view", "cell"])
@pytest.mark.parametrize("config, printed", CASES)
def test_printing_configuration_keeps_the_index(config, printed, kind):
    """Any printing configuration shows the index and what it asks for, or is refused"""
    func = _store_in_a_loop(kind)
    obj = func if printed == "function" else func.body
    make, shown = CONFIGS[config]
    try:
        text = obj.script(**make(func.body.seq[1].body, _store_path(printed)))
    except NotImplementedError:  # a printer that rewrites plain text cannot rewrite this one
        return
    assert "[j] = X[j]" in text and shown in text, text


if __name__ == "__main__":
    tvm.testing.main()
