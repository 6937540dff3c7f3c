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
"""Programs on which the TVMScript printer's reference fix for one-element buffers' names and
data and each blind wrong fix differ (harness/blind_demo.py; run with scripts/blind_demos.py
--bug printer_param_data).

A demo prints its program and parses the text back (the printer demos' shared observers and
one-cell builder: harness/blind_printer.py). Each program is written as TVMScript statements
here; what a round's observer shows of the printed text and how it words the parse back are
that round's own."""

import tvm_ffi

import tvm
import tvm.script
from harness.blind_demo import Demo, message
from harness.blind_printer import one_cell, printed_body, round_trip
from tvm.script import ir as I
from tvm.script import tirx as T

ONE = 'A: T.Buffer((1,), "float32")'
ONE_INT = 'A: T.Buffer((1,), "int32")'
X = "x: T.float32"


def buffer(name, n, dtype="float32"):
    """A parameter ``name``: a buffer of ``n`` elements of ``dtype``."""
    return f'{name}: T.Buffer(({n},), "{dtype}")'


def function(params, *lines, name="main"):
    """A function's TVMScript: ``name(params)`` of the statement ``lines``."""
    body = "".join(f"    {x}\n" for x in lines)
    return f"@T.prim_func(check_well_formed=False)\ndef {name}({params}):\n{body}"


def program(*functions):
    """A demo's program: the PrimFunc of one function's text, or an IRModule of several."""

    def make():
        if len(functions) == 1:
            text = functions[0]
        else:
            body = "".join("".join(f"    {x}\n" for x in f.splitlines()) for f in functions)
            text = "@I.ir_module(check_well_formed=False)\nclass Module:\n" + body
        extra = {"T": T, "I": I}
        return tvm.script.from_source(text, extra_vars=extra, check_well_formed=False)

    return make


def view(name, data, flat=False):
    """The statement declaring a one-element float32 view ``name`` at ``data`` (``flat``:
    FlattenBuffer's layout=None)."""
    layout = ", layout=None" if flat else ""
    return f'{name} = T.decl_buffer((1,), "float32", data={data}{layout})'


def cell(name="c"):
    """The statement allocating a plain local float32 cell ``name``."""
    return f'{name} = T.alloc_local((1,), "float32")'


def updated_cell(params, update, use):
    """A cell c set to the parameter x, then to ``update``, then used by ``use``."""
    return program(function(params, cell(), "c[0] = x", f"c[0] = {update}", use))


def parameter_alias(op, flat=False):
    """FlattenBuffer's form of a one-element parameter A: an alias A_1 of its data, read beside A
    as ``C[0] = A_1[0] op A[0]``."""
    return program(
        function(
            f"{ONE}, {buffer('C', 1)}", view("A_1", "A.data", flat), f"C[0] = A_1[0] {op} A[0]"
        )
    )


def in_block(source, store):
    """An S-TIR block b over i < 4 matching a one-element A at ``source``, then ``store``."""
    return [
        "for i in range(4):",
        '    with T.sblock("b"):',
        "        vi = T.axis.spatial(4, i)",
        f'        A = T.match_buffer({source}, (1,), "float32")',
        f"        {store}",
    ]


# the observers


def printed_inline(**config):
    """An observer: the body's printed lines under ``config`` on one line, and print -> parse."""

    def observe(func):
        text = func.script(**config)
        body = [x.strip() for x in text.splitlines() if x.startswith("    ")]
        return " | ".join(body) + " || " + round_trip(func, text, typed=False, width=160)

    return observe


def error_line(err, width=300):
    """An error's type and the line that says what is wrong."""
    return f"{type(err).__name__}: {message(err)[:width]}"


def parsed_back(obj, text):
    """None where ``text`` parses back to ``obj``, else the parser's error or the difference."""
    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(text, check_well_formed=False))
    except Exception as err:  # the result: where print -> parse differs
        return err
    return None


def round4(obj):
    """Round 4: the printed body lines (no heads) => print -> parse."""
    text = obj.script()
    body = [x.strip() for x in text.splitlines() if x.startswith("    ") and "@" not in x]
    body = [x for x in body if not x.startswith(("def ", "class "))]
    err = parsed_back(obj, text)
    return f"{' | '.join(body)} => {'round-trips' if err is None else error_line(err)}"


def round5(obj):
    """Round 5: the printed body || print -> parse (or the printer's refusal)."""
    try:
        text = obj.script()
    except Exception as err:  # the result: the printer refuses
        return f"print: {error_line(err, 160)}"
    body = " / ".join(x.strip() for x in text.splitlines() if x.startswith("    "))
    try:
        back = tvm.script.from_source(text, check_well_formed=False)
        same = tvm_ffi.structural_equal(obj, back)
        verdict = "round-trips" if same else "parses back as another program"
    except Exception as err:  # the result: where print -> parse differs
        verdict = error_line(err, 160)
    return f"{body} || {verdict}"


def round6(again=False):
    """Round 6: the last four printed statements, then print -> parse (``again``: whether the
    text parses and prints the same), as a list."""

    def observe(obj):
        text = obj.script()
        lines = [x.strip() for x in text.splitlines() if x.startswith("        ") or "= " in x]
        if again:
            try:
                same = tvm.script.from_source(text).script() == text
                verdict = "parses back, prints " + ("the same" if same else "other")
            except Exception as err:  # the parser's error
                verdict = error_line(err, 140)
        else:
            err = parsed_back(obj, text)
            verdict = "round-trips" if err is None else error_line(err, 140)
        return [*lines[-4:], verdict]

    return observe


def round7(sugar=True):
    """Round 7: the printed statements (not the signatures), then print -> parse."""

    def first(err, width=None):
        return f"{type(err).__name__}: {str(err).strip().splitlines()[0][:width]}"

    def observe(obj):
        try:
            text = obj.script(syntax_sugar=sugar)
        except Exception as err:
            return f"print: {first(err)}"
        lines = [x.strip() for x in text.splitlines() if x.startswith("    ") and "def " not in x]
        lines = [x for x in lines if not x.startswith(("@", "#", "T.func_attr"))]
        err = parsed_back(obj, text)
        return " | ".join([*lines, "round trip: " + ("equal" if err is None else first(err, 200))])

    return observe


# programs several rounds show
VIEW_OF_PARAMETER = program(
    function(f"{ONE}, {buffer('C', 1)}", view("B", "A.data"), "C[0] = B[0] + A[0]")
)

DEMOS = {
    # round 2
    # a one-element parameter's data passed to an extern call: the wrong fix undoes main's
    # A.buffer spelling only, so 0.27's A.source.data stays
    "blind2-main-buffer-attr": Demo(
        program(
            function(
                ONE,
                'T.evaluate(T.call_extern("int32", "touch", A.data))',
                "A[0] = A[0] + T.float32(1)",
            )
        ),
        printed_body(),
    ),
    # f's local cell c beside g's one-element parameter c: the wrong fix collects the cell names
    # over the whole module, so g's parameter keeps the shorthand
    "blind2-module-scalar-names": Demo(
        program(
            function(f"{X}, {buffer('B', 2)}", cell(), "c[0] = x", "B[0] = c[0]", name="f"),
            function(
                f"{buffer('c', 1)}, y: T.float32, {buffer('D', 2)}",
                "D[1] = c[0] * y + T.float32(1)",
                name="g",
            ),
        ),
        printed_body(),
    ),
    # a default-layout alias of a parameter (printed T.decl_scalar): the wrong fix's scalar syntax
    # misses decl_scalar and prints A_1[0], which does not parse
    "blind2-no-decl-scalar": Demo(parameter_alias("*"), printed_body()),
    # a layout=None alias of a parameter: the wrong fix subscripts a name printed subscripted
    # again (A_1[0][0])
    "blind2-subscripted-kept": Demo(parameter_alias("+", flat=True), printed_body()),
    # f's one-element parameter A beside g's int32 parameter A: the wrong fix takes the whole
    # module's shorthand buffers for every function, so g's scalar gets [0]
    "blind2-union-shorthand": Demo(
        program(
            function(ONE, "A[0] = A[0] * T.float32(2)", name="f"),
            function(
                f"{buffer('B', 8)}, A: T.int32",
                "for i in range(8):",
                '    B[i] = T.Cast("float32", A + i)',
                name="g",
            ),
        ),
        printed_body(),
    ),
    # round 3
    # a layout=None alias of a parameter read in a loop: the wrong fix prints its data as
    # A.source.data
    "blind3-data-site-unchanged": Demo(
        program(
            function(
                f"{ONE}, {buffer('C', 4)}",
                view("A_1", "A.data", flat=True),
                "for i in range(4):",
                "    C[i] = A_1[0] * T.float32(2)",
            )
        ),
        printed_inline(),
    ),
    # a cell accumulated inside a loop: the wrong fix looks for the cell's name in the innermost
    # frame only and prints c[0]
    "blind3-innermost-frame-only": Demo(
        program(
            function(
                f"{buffer('A', 8)}, {buffer('C', 8)}",
                cell(),
                "c[0] = T.float32(0)",
                "for i in range(8):",
                "    c[0] = c[0] + A[i]",
                "    C[i] = c[0]",
            )
        ),
        printed_inline(),
    ),
    # a one-element parameter read in an expression: the wrong fix prints the bare name A, which
    # does not parse
    "blind3-load-site-unchanged": Demo(
        program(
            function(
                f"{ONE}, {buffer('B', 4)}, {buffer('C', 4)}",
                "for i in range(4):",
                "    C[i] = A[0] * T.float32(2) + B[i]",
            )
        ),
        printed_inline(),
    ),
    # a plain cell printed unsugared as T.local_scalar: the wrong fix prints its accesses as a
    # buffer's (c[0] = x); neither parses on the wheel without the printer_cell fix
    "blind3-no-alloc-scalar-name": Demo(one_cell("float32"), printed_inline(syntax_sugar=False)),
    # a one-element view of a handle (printed T.decl_scalar) updated in place: the wrong fix
    # prints B[0] = B[0] + 1, which does not parse
    "blind3-no-decl-scalar-name": Demo(
        program(
            function(
                'a: T.handle("float32", "global")', view("B", "a"), "B[0] = B[0] + T.float32(1)"
            )
        ),
        printed_inline(),
    ),
    # a cell printed with the sugar, doubled in place: the wrong fix subscripts its name
    "blind3-no-sugar-name": Demo(
        updated_cell(X, "c[0] * T.float32(2)", "T.evaluate(c[0])"), printed_inline()
    ),
    # round 4
    "blind4-no-decl-scalar": Demo(VIEW_OF_PARAMETER, round4),
    "blind4-sugar-not-scalar-name": Demo(
        updated_cell(f"{buffer('C', 2)}, {X}", "c[0] + T.float32(1)", "C[1] = c[0]"), round4
    ),
    "blind4-module-wide-names": Demo(
        program(
            function(f"{ONE}, {X}", "A[0] = x + T.float32(1)", name="f"),
            function(f"A: T.float32, {buffer('C', 2)}", "C[0] = A + T.float32(1)", name="g"),
        ),
        round4,
    ),
    "blind4-no-store-site": Demo(VIEW_OF_PARAMETER, round4),
    "blind4-main-attr-only": Demo(VIEW_OF_PARAMETER, round4),
    "blind4-definition-as-store": Demo(
        program(
            function(
                f"{buffer('B', 4)}, {buffer('C', 2)}", *in_block("B[vi : vi + 1]", "C[0] = A[0]")
            )
        ),
        round4,
    ),
    "blind4-scalar-names-by-base": Demo(
        program(
            function(
                f"{ONE}, {buffer('C', 2)}, {X}",
                "C[1] = A[0]",
                "for i in range(2):",
                f"    {cell('A')}",
                "    A[0] = x",
                "    C[0] = A[0]",
            )
        ),
        round4,
    ),
    # round 5
    "blind5-param-no-decl-scalar": Demo(
        program(
            function(
                f'a: T.handle("float32"), {buffer("C", 1)}',
                view("B", "a"),
                "C[0] = B[0] * T.float32(2)",
            )
        ),
        round5,
    ),
    "blind5-param-names-module-wide": Demo(
        program(
            function(X, "c: T.float32 = x", "T.evaluate(c)", name="a"),
            function(f"{buffer('c', 1)}, {buffer('D', 4)}", "D[1] = c[0]", name="b"),
        ),
        round5,
    ),
    "blind5-param-shorthand-first-function": Demo(
        program(
            function(
                f"{buffer('P', 1, 'int32')}, {buffer('X', 4, 'int32')}", "X[0] = P[0]", name="a"
            ),
            function(
                f"{buffer('Q', 1, 'int32')}, {buffer('X', 4, 'int32')}", "X[1] = Q[0] + 1", name="b"
            ),
        ),
        round5,
    ),
    "blind5-param-no-suffix-base": Demo(
        program(
            function(
                f"{ONE}, {buffer('C', 4)}, {buffer('D', 4)}",
                *in_block("C[vi]", "D[vi] = A[0] * T.float32(2)"),
            )
        ),
        round5,
    ),
    "blind5-param-shadow-base": Demo(
        program(
            function(
                f"{ONE}, {buffer('C', 1)}",
                "C[0] = A[0]",
                "for i in range(2):",
                "    A: T.float32 = T.float32(1)",
                "    C[0] = C[0] + A",
            )
        ),
        round5,
    ),
    "blind5-param-no-lost-index-check": Demo(
        program(
            function(
                f"{ONE}, {buffer('C', 4)}", "for i in range(1):", "    C[i] = A[i] + T.float32(1)"
            )
        ),
        round5,
    ),
    "blind5-param-loads-in-assignments-only": Demo(
        program(
            function(
                f"{ONE}, {buffer('C', 4)}", "if A[0] > T.float32(0):", "    C[0] = T.float32(1)"
            )
        ),
        round5,
    ),
    "blind5-param-attr-buffer-only": Demo(
        program(function(ONE, 'T.evaluate(T.call_extern("int32", "consume", A.data, 1))')), round5
    ),
    # round 6
    "blind6-no-data-site": Demo(
        program(
            function(
                f"{ONE}, {buffer('C', 4)}",
                view("V", "A.data", flat=True),
                "C[1] = V[0] * T.float32(2)",
            )
        ),
        round6(),
    ),
    "blind6-no-store-site": Demo(
        program(
            function(f"{buffer('X', 4)}, {buffer('C', 1)}", "for i in range(4):", "    C[0] = X[i]")
        ),
        round6(),
    ),
    "blind6-no-load-site": Demo(
        program(function(f"{ONE_INT}, {buffer('C', 8, 'int32')}", "C[A[0] + 1] = T.int32(5)")),
        round6(),
    ),
    "blind6-no-decl-scalar": Demo(
        program(
            function(
                f'a: T.handle("float32", "global"), {X}',
                'B = T.decl_scalar("float32", data=a, scope="global")',
                "B = x",
                "B = B + x",
            )
        ),
        round6(),
    ),
    "blind6-params-only": Demo(
        program(
            function(
                f"{buffer('X', 4)}, {buffer('C', 4)}",
                view("V", "X.data"),
                "for i in range(4):",
                "    C[i] = V[0] * T.float32(2)",
            )
        ),
        round6(again=True),
    ),
    "blind6-module-wide-names": Demo(
        program(
            function(ONE, "A[0] = T.float32(1)", name="f"),
            function(f"A: T.float32, {buffer('C', 2)}", "C[0] = A", name="g"),
        ),
        round6(),
    ),
    "blind6-no-sugar-cell": Demo(
        updated_cell(f"{ONE}, {X}", "c[0] * x", "A[0] = c[0] + A[0]"), round6()
    ),
    # round 7
    "blind7-store-site-unchanged": Demo(
        program(function(f"{buffer('C', 1)}, {X}", "C[0] = x")), round7()
    ),
    "blind7-load-site-unchanged": Demo(
        program(function(f"{ONE_INT}, {buffer('B', 8)}", "B[A[0]] = T.float32(1.0)")), round7()
    ),
    "blind7-var-site-unchanged": Demo(
        program(
            function(
                f"{buffer('A', 4)}, {buffer('S', 1)}",
                view("S_1", "S.data", flat=True),
                "A[0] = S_1[0]",
            )
        ),
        round7(),
    ),
    "blind7-decl-scalar-not-defined": Demo(
        program(
            function(
                buffer("A", 4),
                'c = T.decl_scalar("float32", A.data, "global", elem_offset=2)',
                "c = c + T.float32(1.0)",
                "A[1] = c",
            )
        ),
        round7(),
    ),
    "blind7-alloc-scalar-not-defined": Demo(
        program(
            function(
                f"{buffer('A', 4)}, {X}",
                'c = T.shared_scalar("float32")',
                "c = x",
                "A[0] = c + T.float32(1.0)",
            )
        ),
        round7(sugar=False),
    ),
    "blind7-sugar-not-defined": Demo(
        updated_cell(f"{buffer('A', 4)}, {X}", "c[0] + T.float32(1.0)", "A[0] = c[0]"), round7()
    ),
    "blind7-module-wide-names": Demo(
        program(
            function(
                f"{X}, {buffer('B', 1)}",
                'A = T.local_scalar("float32")',
                "A = x",
                "B[0] = A",
                name="f",
            ),
            function(f"{ONE}, {buffer('C', 1)}", "C[0] = A[0] + T.float32(1.0)", name="g"),
        ),
        round7(),
    ),
}
