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
"""Which cells print in full, and with which printing configuration (proof only).

Mutants of bugs/printer_cell/reference_fix.py (scripts/mutants.py) survived every other test:
  - the one-element test loosened (``and`` -> ``or``, ``len(shape) == 1`` -> ``>=``/``<=``,
    ``== 1`` -> ``>=``/``<=``): another buffer outside local scope, of more than one element,
    of leading extent 1, 0-d, empty or of symbolic extent, is taken for a cell (or the test
    raises), and a plain local cell beside it loses its shorthand ``c: T.int32``;
  - the copy of the caller's PrinterConfig with the sugar off losing the function's name, the
    ``extra_config`` (the dialect's prefix), the underline paths, or the defaults of ``repr``
    (which prints with no config at all).
"""

import pytest

import tvm
import tvm.testing
from bugs.printer_cell.proof.test_printer_cell_mutants import (
    CELLS,
    _printer_param_data_stand_in,
    store_of,
)
from tvm.script import tirx as T

SHAPES = {
    "four": (4,),
    "eight": (8,),
    "leading-one": (1, 4),
    "zero-d": (),
    "empty": (0,),
}


def local_cell_beside(shape, scope):
    """A plain local cell beside a buffer of ``shape`` (None: symbolic) in ``scope``."""

    @T.prim_func
    def func(x: T.int32, n: T.int32):
        c = T.alloc_buffer((1,), "int32", scope="local")
        b = T.alloc_buffer((n,) if shape is None else shape, "int32", scope=scope)  # noqa: F841 (the buffer beside the cell is the point)
        c[0] = x
        T.evaluate(c[0])

    return func


@pytest.mark.parametrize("scope", ["global", "shared"])
@pytest.mark.parametrize("shape", [*SHAPES, "symbolic"])
def test_cell_beside_a_buffer_keeps_its_shorthand(shape, scope):
    """A buffer other than a one-element one does not turn the sugar off for a plain cell."""
    func = local_cell_beside(SHAPES.get(shape), scope)
    lines = [line.strip() for line in func.script().splitlines()]
    assert "c: T.int32" in lines


DECLARATIONS = {
    "shared": "c = {p}.shared_scalar({d})",
    "annotated": 'c = {p}.local_scalar({d}, annotations={{"note": 1}})',
}


# how the function is printed; a line the text must hold; the prefix; the dtype as printed
PRINTS = {
    "name": (lambda f: f.script(name="g"), "def g(x: T.int32):", "T", '"int32"'),
    "extra-config": (
        lambda f: f.script(extra_config={"tirx.prefix": "TX"}),
        "# from tvm.script import tirx as TX",
        "TX",
        "TX.int32",
    ),
    "underline": (lambda f: f.script(obj_to_underline=[store_of(f)]), "^^^^^", "T", '"int32"'),
    "repr": (repr, "@T.prim_func", "T", '"int32"'),
}


# patch 0008's Python stand-in rewrites the printed text, so it refuses an underline
# (CannotPrint); the C++ prints one
STAND_IN_0008 = pytest.mark.skipif(
    _printer_param_data_stand_in(),
    reason="the Python stand-in of patch 0008 cannot print with underlines (CannotPrint)",
)


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="TVMScript scalar sugar drops the cell's annotations and scope",
)
@pytest.mark.parametrize(
    "how", [pytest.param(h, marks=STAND_IN_0008) if h == "underline" else h for h in PRINTS]
)
@pytest.mark.parametrize("cell", CELLS)
def test_printed_cell_keeps_the_printing_configuration(cell, how):
    """A cell printed in full is printed under the caller's configuration, name to prefix."""
    show, line, prefix, dtype = PRINTS[how]
    lines = [text.strip() for text in show(CELLS[cell]).splitlines()]
    assert line in lines
    assert DECLARATIONS[cell].format(p=prefix, d=dtype) in lines


if __name__ == "__main__":
    tvm.testing.main()
