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
"""Programs on which the TVMScript printer's reference fix for one-element cells and each blind
wrong fix differ (harness/blind_demo.py; run with scripts/blind_demos.py --bug printer_cell).

Every program is valid; a demo prints it and parses the text back (harness/blind_printer.py has
the first two rounds' observers). What a round's observer shows of the printed text (the cells'
declarations, the body, the function's head) and how it words the parse back are its own."""

import tvm
import tvm.script
from harness.blind_demo import Demo, message
from harness.blind_printer import one_cell, printed_body, printed_declarations
from tvm.script import tirx as T

X = "x: T.float32"
XY = "x: T.float32, y: T.int32"


def function(params, *lines):
    """``main(params)`` of the statement ``lines``."""
    text = f"@T.prim_func\ndef main({params}):\n" + "".join(f"    {x}\n" for x in lines)
    return tvm.script.from_source(text, extra_vars={"T": T})


def program(params, *lines):
    """A demo's program: ``function(params, *lines)``."""
    return lambda: function(params, *lines)


def alloc(name, dtype, scope="local", annotations=None):
    """The statement allocating a one-element cell ``name``."""
    more = f", annotations={annotations}" if annotations else ""
    return f'{name} = T.alloc_buffer((1,), "{dtype}", scope="{scope}"{more})'


def cell(scope="local", annotations=None):
    """A float32 cell in ``scope`` with ``annotations``, set to the parameter x and evaluated
    (rounds 4 and 6: ``main``)."""
    make = one_cell("float32", scope, annotations, plus_one=False)
    return lambda: make().with_attr("global_symbol", "main")


def cast_cell(dtype="float32", scope="local", annotations=None):
    """Round 7's program: a ``dtype`` cell set to the int32 parameter x cast, and evaluated."""
    return program(
        "x: T.int32",
        alloc("c", dtype, scope, annotations),
        f'c[0] = T.Cast("{dtype}", x)',
        "T.evaluate(c[0])",
    )


def cells(*decls):
    """Round 5's program: one cell per ``(dtype, scope, annotations)``, each set to 1 and
    evaluated."""
    names = [f"c{i}" for i in range(len(decls))]
    return program(
        X,
        *[alloc(n, *d) for n, d in zip(names, decls)],
        *[f"{n}[0] = T.{d[0]}(1)" for n, d in zip(names, decls)],
        *[f"T.evaluate({n}[0])" for n in names],
    )


def two_cells(first, second, value, params=XY):
    """A float32 cell c (``first``: its scope and annotations) set to x and an int32 cell d
    (``second``) set to ``value``, their sum evaluated."""
    return program(
        params,
        alloc("c", "float32", *first),
        alloc("d", "int32", *second),
        "c[0] = x",
        f"d[0] = {value}",
        'T.evaluate(c[0] + T.Cast("float32", d[0]))',
    )


def double(value):
    """Round 2's store into a float16 cell: twice the parameter."""
    return value * T.float16(2)


# the observers of rounds 4 to 7 (each round's own words)


def parsed_back(func, text):
    """None where parsing ``text`` gives ``func`` back, else the parser's error or the first
    structural difference."""
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
    except Exception as err:  # the result: where print -> parse differs
        return err
    return None


def verdict(err, width=300):
    """ "round-trips", or the error's type and line (its first ``width`` characters)."""
    return "round-trips" if err is None else f"{type(err).__name__}: {message(err)[:width]}"


def declared(**config):
    """Round 4: the cells' printed declarations under ``config`` => print -> parse."""

    def observe(func):
        text = func.script(**config)
        lines = text.splitlines()
        decls = [x.strip() for x in lines if ("_scalar(" in x or ": T." in x) and "def " not in x]
        return f"{' | '.join(decls)} => {verdict(parsed_back(func, text))}"

    return observe


def printed_head(**config):
    """Round 4: the function's first two lines as printed with ``config``."""

    def observe(func):
        lines = [x for x in func.script(**config).splitlines() if x and not x.startswith("#")]
        return " / ".join(lines[1:3])

    return observe


def body(**config):
    """Round 5: the printed body's lines naming a cell (under ``config``) || print -> parse."""

    def observe(func):
        text = func.script(**config)
        said = " / ".join(x.rstrip() for x in text.splitlines() if x.startswith(" ") and "c" in x)
        return f"{said} || {verdict(parsed_back(func, text), 160)}"

    return observe


def listed(obj):
    """Round 6: the cells' printed declarations and print -> parse, as a list."""
    text = obj.script()
    lines = [
        x.strip() for x in text.splitlines() if "scalar" in x or (": T." in x and "def" not in x)
    ]
    return [*lines, verdict(parsed_back(obj, text), 140)]


def cell_lines(sugar=True):
    """Round 7: the printed lines of the cell c, then print -> parse."""

    def observe(func):
        text = func.script(syntax_sugar=sugar)
        lines = [x.strip() for x in text.splitlines() if x.strip().startswith("c")]
        err = parsed_back(func, text)
        said = (
            "equal" if err is None else f"{type(err).__name__}: {str(err).strip().splitlines()[0]}"
        )
        return " | ".join([*lines, f"round trip: {said}"])

    return observe


DEMOS = {
    # round 2
    # unannotated shared and global cells: the wrong fix keeps their sugar (they parse back local)
    "blind2-annotations-only": Demo(two_cells(("shared",), ("global",), "y + 1"), printed_body()),
    # an annotated cell beside a plain int32 counter: the wrong fix leaves the counter's
    # T.local_scalar(T.int32), which does not parse
    "blind2-changed-cell-dtypes": Demo(
        program(
            f'{X}, A: T.Buffer((4,), "float32")',
            alloc("c", "float32", "local", {"device_type": 1}),
            alloc("k", "int32"),
            "c[0] = x",
            "k[0] = 0",
            "for i in range(4):",
            "    A[i] = c[0]",
            "    k[0] = k[0] + 1",
        ),
        printed_body(),
    ),
    # a cell annotated with pragma_keep: the wrong fix drops the sugar for device_type only
    "blind2-device-type-only": Demo(
        one_cell("float32", annotations={"pragma_keep": 1}, plus_one=False), printed_body()
    ),
    # an annotated cell after a plain one: the wrong fix looks at the first cell only
    "blind2-first-cell-only": Demo(
        program(
            X,
            alloc("a", "float32"),
            alloc("c", "float32", "local", {"device_type": 1}),
            "a[0] = x",
            "c[0] = a[0] + x",
            "T.evaluate(c[0])",
        ),
        printed_body(),
    ),
    # a float16 cell in the tagged scope local.L0A: the wrong fix's prefix test keeps the sugar
    "blind2-local-prefix": Demo(
        one_cell("float16", "local.L0A", store=double, plus_one=False), printed_body()
    ),
    # a global int32 cell: the wrong fix leaves T.alloc_scalar(T.int32, ...), which does not parse
    "blind2-no-alloc-scalar": Demo(one_cell("int32", "global", plus_one=False), printed_body()),
    # a plain bfloat16 cell printed unsugared: the wrong fix writes the dtype string only when it
    # turned the sugar off itself
    "blind2-p2-only-when-unsugared": Demo(
        one_cell("bfloat16", plus_one=False), printed_body(syntax_sugar=False)
    ),
    # a shared cell annotated device_type 2: the wrong fix's shared_scalar drops the annotations
    "blind2-shared-drops-annotations": Demo(
        one_cell("float32", "shared", {"device_type": 2}, plus_one=False), printed_body()
    ),
    # round 3
    # a global float16 cell: the wrong fix prints T.alloc_scalar(T.float16, ...), which does not
    # parse
    "blind3-alloc-scalar-dtype-constructor": Demo(
        one_cell("float16", "global"), printed_declarations()
    ),
    # an unannotated shared cell: the wrong fix keeps the sugar, which parses back local
    "blind3-annotations-only": Demo(one_cell("float32", "shared"), printed_declarations()),
    # a cell in the tagged scope local.L0A: the wrong fix's prefix test keeps the sugar
    "blind3-local-prefix-scope": Demo(one_cell("float32", "local.L0A"), printed_declarations()),
    # an annotated local int32 cell: the wrong fix's local_scalar drops the annotations
    "blind3-local-scalar-drops-annotations": Demo(
        one_cell("int32", annotations={"device_type": 1}), printed_declarations()
    ),
    # an annotated local cell: the wrong fix keeps the sugar for every local cell
    "blind3-scope-only": Demo(
        one_cell("float32", annotations={"device_type": 1}), printed_declarations()
    ),
    # an annotated shared cell (beside an annotated local one): the wrong fix's shared_scalar
    # drops the annotations
    "blind3-shared-scalar-drops-annotations": Demo(
        program(
            X,
            alloc("c", "float32", "local", {"pragma_x": 1}),
            alloc("s", "float32", "shared", {"pragma_x": 1}),
            "c[0] = x",
            "s[0] = c[0]",
            "T.evaluate(s[0] + T.float32(1))",
        ),
        printed_declarations(),
    ),
    # a plain local cell printed unsugared: the wrong fix prints T.local_scalar(T.float32), which
    # does not parse
    "blind3-unsugared-dtype-constructor": Demo(
        one_cell("float32"), printed_declarations(syntax_sugar=False)
    ),
    # round 4
    "blind4-annotations-only": Demo(cell("shared"), declared()),
    "blind4-scope-only": Demo(cell(annotations={"device_type": 1}), declared()),
    "blind4-local-prefix-scope": Demo(cell("local.L0A"), declared()),
    "blind4-no-alloc-scalar-dtype": Demo(cell("global"), declared()),
    "blind4-first-dtype-only": Demo(
        two_cells(("local", {"device_type": 1}), ("shared",), "1", params=X), declared()
    ),
    "blind4-shared-scalar-drops-annotations": Demo(cell("shared", {"pragma": 1}), declared()),
    "blind4-dtype-string-only-when-desugared": Demo(cell(), declared(syntax_sugar=False)),
    "blind4-fresh-config": Demo(
        cell(annotations={"device_type": 1}), printed_head(name="kernel", indent_spaces=2)
    ),
    # round 5
    "blind5-cell-scope-ignored": Demo(cells(("float32", "shared.dyn")), body()),
    "blind5-cell-annotations-ignored": Demo(cells(("int8", "local", {"pragma_x": 7})), body()),
    "blind5-cell-tagged-local": Demo(cells(("float32", "local.L0A")), body()),
    "blind5-cell-builder-drops-annotations": Demo(
        cells(("float32", "global", {"device_type": 1})), body()
    ),
    "blind5-cell-shared-drops-annotations": Demo(
        cells(("float16", "shared", {"device_type": 1})), body()
    ),
    "blind5-cell-p2-first-cell-only": Demo(
        cells(("float32", "local", {"device_type": 1}), ("int32", "shared")), body()
    ),
    "blind5-cell-p2-only-when-unsugared": Demo(
        cells(("float32", "local")), body(syntax_sugar=False)
    ),
    "blind5-cell-config-reset": Demo(
        cells(("float32", "local", {"device_type": 1})), body(indent_spaces=2)
    ),
    # round 6
    "blind6-annotations-only": Demo(cell("shared"), listed),
    "blind6-scope-only": Demo(cell(annotations={"device_type": 1}), listed),
    "blind6-local-prefix": Demo(cell("local.L0A"), listed),
    "blind6-shared-drops-annotations": Demo(cell("shared", {"device_type": 1}), listed),
    # the same cell in a module
    "blind6-module-not-checked": Demo(
        lambda: tvm.IRModule({"main": cell(annotations={"device_type": 1})()}), listed
    ),
    "blind6-first-dtype-only": Demo(two_cells(("shared",), ("shared",), "y"), listed),
    "blind6-first-cell-only": Demo(
        program(
            X,
            alloc("c", "float32"),
            alloc("d", "float32", "local", {"device_type": 1}),
            "c[0] = x",
            "d[0] = x",
            "T.evaluate(c[0] + d[0])",
        ),
        listed,
    ),
    # round 7
    "blind7-no-scope-check": Demo(cast_cell(scope="shared"), cell_lines()),
    "blind7-no-annotation-check": Demo(cast_cell(annotations={"device_type": 1}), cell_lines()),
    "blind7-scope-prefix": Demo(cast_cell(scope="local.L0A"), cell_lines()),
    "blind7-p2-shared-only": Demo(cast_cell("int32", annotations={"device_type": 2}), cell_lines()),
    "blind7-p2-not-alloc-scalar": Demo(cast_cell(scope="global"), cell_lines()),
    "blind7-local-drops-annotations": Demo(
        cast_cell("int8", annotations={"pragma_unroll": 4}), cell_lines()
    ),
    "blind7-shared-drops-annotations": Demo(
        cast_cell("float16", "shared", {"device_type": 2}), cell_lines()
    ),
    "blind7-p2-only-when-p1": Demo(cast_cell(), cell_lines(sugar=False)),
}
