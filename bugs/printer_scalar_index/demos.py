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
"""Programs on which the TVMScript printer's reference fix and each blind wrong fix differ
(harness/blind_demo.py; run with scripts/blind_demos.py --bug printer_scalar_index).

Each program holds a one-element buffer that the printer writes as a scalar name (a view ``B``
over a handle, a cell ``c``, a scalar view): what is compared is the printed body and whether
parsing the text gives the program back, or the printed body statement."""

import tvm
import tvm.script
from harness.blind_demo import Demo, message
from tvm.script import tirx as T

# a one-element view B over the handle parameter a
VIEW = 'B = T.decl_buffer((1,), "float32", data=a)'
# a one-element local cell c
CELL = 'c = T.alloc_local((1,), "float32")'


def function(params, *lines):
    """``main(params)`` with the statement lines (TVMScript, four spaces per nesting level)."""
    text = f"@T.prim_func(check_well_formed=False)\ndef main({params}):\n"
    text += "".join(f"    {line}\n" for line in lines)
    return tvm.script.from_source(text, extra_vars={"T": T}, check_well_formed=False)


def program(params, *lines):
    """A demo's program: ``function(params, *lines)``."""
    return lambda: function(params, *lines)


def two_functions():
    """A module: f without a one-element buffer, then g, the issue's program."""
    f = function('A: T.Buffer((2,), "float32")', "A[1] = T.float32(0)")
    return tvm.IRModule({"f": f.with_attr("global_symbol", "f"), "g": ISSUE()})


def round_trip(obj):
    """Observer: the printed statements (not signatures), then whether print -> parse gives
    ``obj`` back ("round-trips"), else the parser's or the comparison's complaint."""
    try:
        text = obj.script()
    except Exception as err:  # the result: the printer refuses
        return f"print: {type(err).__name__}: {message(err)[:160]}"
    lines = [x.strip() for x in text.splitlines() if x.startswith("    ")]
    skip = ("def ", "@", "#", "class ", "T.func_attr")
    body = " | ".join(x for x in lines if not x.startswith(skip))
    try:
        back = tvm.script.from_source(text, check_well_formed=False)
        tvm.ir.assert_structural_equal(obj, back)
        verdict = "round-trips"
    except Exception as err:  # a parse error or the first structural difference
        verdict = f"{type(err).__name__}: {message(err)[:160]}"
    return f"{body} || {verdict}"


def body_repr(func):
    """Observer: ``repr`` of the function's body, a statement."""
    return " | ".join(x.strip() for x in repr(func.body).splitlines() if x.strip())


def series_round_trip(obj):
    """Observer: ``round_trip`` with the printer of the series, patch 0005 and 0008's fixes
    under this one (the installed fix of this report wraps them)."""
    import tvm.runtime.script_printer as printer
    from bugs.printer_cell import reference_fix as cell
    from bugs.printer_param_data import reference_fix as param
    from bugs.printer_scalar_index import reference_fix as index

    outer = printer._script
    original = outer.__closure__[outer.__code__.co_freevars.index("original")].cell_contents
    printer._script = index._script(param._script(cell._script(original)))
    try:
        return round_trip(obj)
    finally:
        printer._script = outer


A_X = 'a: T.handle("float32", "global"), x: T.float32'
A_C = 'a: T.handle("float32", "global"), C: T.Buffer((4,), "float32")'
# the issue's program: B[i] = B[i] + 1 in a loop
ISSUE = program(
    'a: T.handle("float32", "global"), n: T.int32',
    VIEW,
    "for i in range(n):",
    "    B[i] = B[i] + T.float32(1)",
)
# a store at a loop variable of range(n)
STORE_IN_LOOP_N = program(f"{A_X}, n: T.int32", VIEW, "for i in range(n):", "    B[i] = x")
# a cell's first store at T.int64(0), which the printer merges with its declaration
CELL_INT64 = program("x: T.float32", CELL, "c[T.int64(0)] = x", "T.evaluate(c[0])")


DEMOS = {
    # round 3
    # stored and loaded at T.int64(0): the wrong fix tests the zero, not its int32 type
    "blind3-int64-zero-shorthand": Demo(
        program(A_X, VIEW, "B[T.int64(0)] = B[T.int64(0)] + x"), round_trip
    ),
    # a store at a loop index: the wrong fix checks loads only and prints B = x (B[0])
    "blind3-load-site-only": Demo(
        program(A_X, VIEW, "for i in range(1):", "    B[i] = x"), round_trip
    ),
    # a cell first stored at T.int64(0): the wrong fix's merge prints c: T.float32 = x
    "blind3-merge-init-unchecked": Demo(
        program("x: T.float32", CELL, "c[T.int64(0)] = x", "T.evaluate(c[0] + T.float32(1))"),
        round_trip,
    ),
    # the issue's program: the wrong fix subscripts the name, which does not parse
    "blind3-name-not-buffer": Demo(ISSUE, round_trip),
    # a two-lane load through a stride-1 Ramp: the wrong fix prints a region B.source[j:j + 2]
    "blind3-ramp-as-slice": Demo(
        program(
            'a: T.handle("float32", "global"), C: T.Buffer((2,), "float32"), j: T.int32',
            VIEW,
            "C[T.Ramp(0, 1, 2)] = B[T.Ramp(j, 1, 2)]",
        ),
        round_trip,
    ),
    # a load at a loop index: the wrong fix checks stores only and prints the bare B (B[0])
    "blind3-store-site-only": Demo(
        program(A_C, VIEW, "for i in range(1):", "    C[i] = B[i] * T.float32(2)"),
        round_trip,
    ),
    # round 4
    "blind4-any-zero-index": Demo(CELL_INT64, round_trip),
    "blind4-no-load-site": Demo(ISSUE, round_trip),
    "blind4-no-store-site": Demo(ISSUE, round_trip),
    "blind4-buffer-attr-main": Demo(ISSUE, round_trip),
    # stored and loaded at the expression n - 1 (in bounds for n == 1)
    "blind4-var-index-only": Demo(
        program(
            'a: T.handle("float32", "global"), n: T.int32, x: T.float32',
            VIEW,
            "B[n - 1] = B[n - 1] + x",
        ),
        round_trip,
    ),
    "blind4-first-function-only": Demo(two_functions, round_trip),
    "blind4-no-stmt-repr": Demo(ISSUE, body_repr),
    # round 5: handles without a storage scope
    # a load at T.int64(0)
    "blind5-index-ignores-width": Demo(
        program(
            'a: T.handle("float32"), C: T.Buffer((4,), "float32")',
            VIEW,
            "C[0] = B[T.int64(0)]",
        ),
        round_trip,
    ),
    # a store at the constant 1
    "blind5-index-any-constant": Demo(
        program('a: T.handle("float32"), x: T.float32', VIEW, "B[1] = x"), round_trip
    ),
    # loads at a loop variable
    "blind5-index-stores-only": Demo(
        program(
            'a: T.handle("float32"), C: T.Buffer((4,), "float32")',
            VIEW,
            "for i in range(2):",
            "    C[i] = B[i]",
        ),
        round_trip,
    ),
    # an int32 view stored at a loop variable
    "blind5-index-loads-only": Demo(
        program(
            'a: T.handle("int32"), n: T.int32',
            'B = T.decl_buffer((1,), "int32", data=a)',
            "for i in range(n):",
            "    B[i] = i",
        ),
        round_trip,
    ),
    # a store at a let-bound variable
    "blind5-index-no-stmt-repr": Demo(
        program(
            'a: T.handle("float32"), n: T.int32, x: T.float32',
            VIEW,
            "j: T.int32 = n - 1",
            "B[j] = x",
        ),
        body_repr,
    ),
    "blind5-index-merge-not-guarded": Demo(CELL_INT64, round_trip),
    # a one-element buffer parameter loaded at a loop variable
    "blind5-index-subscript-buffer-text": Demo(
        program(
            'A: T.Buffer((1,), "float32"), C: T.Buffer((4,), "float32")',
            "for i in range(1):",
            "    C[i] = A[i] + T.float32(1)",
        ),
        series_round_trip,
    ),
    # round 6
    # loads at a loop variable of range(n)
    "blind6-stores-only": Demo(
        program(f"{A_C}, n: T.int32", VIEW, "for i in range(n):", "    C[i] = B[i] * T.float32(2)"),
        round_trip,
    ),
    "blind6-loads-only": Demo(STORE_IN_LOOP_N, round_trip),
    # a store at T.int64(0)
    "blind6-zero-of-any-dtype": Demo(program(A_X, VIEW, "B[T.int64(0)] = x"), round_trip),
    "blind6-main-buffer-attr": Demo(STORE_IN_LOOP_N, round_trip),
    "blind6-store-value-as-index": Demo(STORE_IN_LOOP_N, round_trip),
    "blind6-no-stmt-repr": Demo(STORE_IN_LOOP_N, body_repr),
    # round 7: cells and scalar views over A
    # a cell stored at [0] and loaded at an int64 0
    "blind7-any-zero": Demo(
        program(
            'A: T.Buffer((4,), "float32"), x: T.float32',
            CELL,
            "c[0] = x",
            "A[1] = c[T.int64(0)] + T.float32(1.0)",
        ),
        round_trip,
    ),
    # an int32 cell loaded at a loop variable inside another buffer's index
    "blind7-store-only": Demo(
        program(
            'A: T.Buffer((8,), "float32"), k: T.int32',
            'c = T.alloc_local((1,), "int32")',
            "c[0] = k",
            "for i in T.serial(1):",
            "    A[c[i]] = T.float32(2.0)",
        ),
        round_trip,
    ),
    # a cell stored at a loop variable, then read at [0]
    "blind7-load-only": Demo(
        program(
            'A: T.Buffer((4,), "float32"), x: T.float32',
            CELL,
            "c[0] = T.float32(0.0)",
            "for i in T.serial(1):",
            "    c[i] = x + T.float32(3.0)",
            "A[0] = c[0]",
        ),
        round_trip,
    ),
    # a scalar view at an offset of A, loaded at the constant 1 (the element after it)
    "blind7-any-constant": Demo(
        program(
            'A: T.Buffer((4,), "float32")',
            'c = T.decl_scalar("float32", A.data, "global", elem_offset=1)',
            "A[0] = c.source[1]",
        ),
        round_trip,
    ),
    # a cell's first store, right after its allocation, at an int64 0
    "blind7-merge-unguarded": Demo(
        program(
            'A: T.Buffer((4,), "float32"), x: T.float32',
            CELL,
            "c[T.int64(0)] = x * T.float32(2.0)",
            "A[2] = c[0]",
        ),
        round_trip,
    ),
    # a scalar view at an offset of A, stored at a variable index
    "blind7-bare-name-fallback": Demo(
        program(
            'A: T.Buffer((4,), "int32"), j: T.int32',
            'c = T.decl_scalar("int32", A.data, "global", elem_offset=2)',
            "c.source[j] = j * 2",
        ),
        round_trip,
    ),
}
