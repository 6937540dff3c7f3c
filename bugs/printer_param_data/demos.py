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
one-cell builder: harness/blind_printer.py)."""

import operator

from harness.blind_demo import Demo
from harness.blind_printer import one_cell, printed_body, round_trip
from tvm.script import ir as I
from tvm.script import tirx as T


def printed_inline(**config):
    """An observer: the body's printed lines under ``config`` on one line, and print -> parse."""

    def observe(func):
        text = func.script(**config)
        body = [x.strip() for x in text.splitlines() if x.startswith("    ")]
        return " | ".join(body) + " || " + round_trip(func, text, typed=False, width=160)

    return observe


def parameter_alias(combine, layout="default"):
    """FlattenBuffer's form of a one-element parameter A: ``A_1 = T.decl_buffer((1,),
    data=A.data, layout=layout)``, read beside A as ``C[0] = combine(A_1[0], A[0])``."""

    @T.prim_func
    def func(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
        A_1 = T.decl_buffer((1,), data=A.data, layout=layout)
        C[0] = combine(A_1[0], A[0])

    return lambda: func


@T.prim_func
def alias_read_in_loop(A: T.Buffer((1,), "float32"), C: T.Buffer((4,), "float32")):
    A_1 = T.decl_buffer((1,), data=A.data, layout=None)
    for i in range(4):
        C[i] = A_1[0] * T.float32(2)


@T.prim_func
def parameter_data_to_extern(A: T.Buffer((1,), "float32")):
    T.evaluate(T.call_extern("int32", "touch", A.data))
    A[0] = A[0] + T.float32(1)


@T.prim_func
def parameter_read_in_expression(
    A: T.Buffer((1,), "float32"), B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32")
):
    for i in range(4):
        C[i] = A[0] * T.float32(2) + B[i]


@T.prim_func
def view_updated_in_place(a: T.handle("float32", "global")):
    B = T.decl_buffer((1,), "float32", data=a)
    B[0] = B[0] + T.float32(1)


@T.prim_func
def cell_accumulated_in_loop(A: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    c = T.alloc_local((1,), "float32")
    c[0] = T.float32(0)
    for i in range(8):
        c[0] = c[0] + A[i]
        C[i] = c[0]


@T.prim_func
def cell_doubled_in_place(x: T.float32):
    c = T.alloc_local((1,), "float32")
    c[0] = x
    c[0] = c[0] * T.float32(2)
    T.evaluate(c[0])


@I.ir_module
class CellBesideParameterOfItsName:
    @T.prim_func
    def f(x: T.float32, B: T.Buffer((2,), "float32")):
        c = T.alloc_local((1,), "float32")
        c[0] = x
        B[0] = c[0]

    @T.prim_func
    def g(c: T.Buffer((1,), "float32"), y: T.float32, D: T.Buffer((2,), "float32")):
        D[1] = c[0] * y + T.float32(1)


@I.ir_module
class ParameterBesideScalarOfItsName:
    @T.prim_func
    def f(A: T.Buffer((1,), "float32")):
        A[0] = A[0] * T.float32(2)

    @T.prim_func
    def g(B: T.Buffer((8,), "float32"), A: T.int32):
        for i in range(8):
            B[i] = T.Cast("float32", A + i)


DEMOS = {
    # a one-element parameter's data passed to an extern call: the wrong fix undoes main's
    # A.buffer spelling only, so 0.27's A.source.data stays
    "blind2-main-buffer-attr": Demo(lambda: parameter_data_to_extern, printed_body()),
    # f's local cell c beside g's one-element parameter c: the wrong fix collects the cell names
    # over the whole module, so g's parameter keeps the shorthand
    "blind2-module-scalar-names": Demo(lambda: CellBesideParameterOfItsName, printed_body()),
    # a default-layout alias of a parameter (printed T.decl_scalar): the wrong fix's scalar syntax
    # misses decl_scalar and prints A_1[0], which does not parse
    "blind2-no-decl-scalar": Demo(parameter_alias(operator.mul), printed_body()),
    # a layout=None alias of a parameter: the wrong fix subscripts a name printed subscripted
    # again (A_1[0][0])
    "blind2-subscripted-kept": Demo(parameter_alias(operator.add, layout=None), printed_body()),
    # f's one-element parameter A beside g's int32 parameter A: the wrong fix takes the whole
    # module's shorthand buffers for every function, so g's scalar gets [0]
    "blind2-union-shorthand": Demo(lambda: ParameterBesideScalarOfItsName, printed_body()),
    # a layout=None alias of a parameter read in a loop: the wrong fix prints its data as
    # A.source.data
    "blind3-data-site-unchanged": Demo(lambda: alias_read_in_loop, printed_inline()),
    # a cell accumulated inside a loop: the wrong fix looks for the cell's name in the innermost
    # frame only and prints c[0]
    "blind3-innermost-frame-only": Demo(lambda: cell_accumulated_in_loop, printed_inline()),
    # a one-element parameter read in an expression: the wrong fix prints the bare name A, which
    # does not parse
    "blind3-load-site-unchanged": Demo(lambda: parameter_read_in_expression, printed_inline()),
    # a plain cell printed unsugared as T.local_scalar: the wrong fix prints its accesses as a
    # buffer's (c[0] = x); neither parses on the wheel without the printer_cell fix
    "blind3-no-alloc-scalar-name": Demo(one_cell("float32"), printed_inline(syntax_sugar=False)),
    # a one-element view of a handle (printed T.decl_scalar) updated in place: the wrong fix
    # prints B[0] = B[0] + 1, which does not parse
    "blind3-no-decl-scalar-name": Demo(lambda: view_updated_in_place, printed_inline()),
    # a cell printed with the sugar, doubled in place: the wrong fix subscripts its name
    "blind3-no-sugar-name": Demo(lambda: cell_doubled_in_place, printed_inline()),
}
