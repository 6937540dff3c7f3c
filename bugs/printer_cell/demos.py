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

Every program is valid; a demo prints it and parses the text back. The shared round-trip
observers are imported by bugs/printer_param_data/demos.py too."""

import tvm
import tvm.script
from harness.blind_demo import Demo
from tvm.script import tirx as T


def round_trip(obj, text, typed, width=200):
    """ "print -> parse: identity", or the first ``width`` characters of the first line of what
    differs (or of the parser's error, its type first when ``typed``)."""
    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(text))
        return "print -> parse: identity"
    except Exception as err:  # a structural difference or the parser's error
        said = [x for x in str(err).strip().splitlines() if x.strip()]
        if typed:
            return f"print -> parse: {type(err).__name__}: {said[0][:width] if said else ''}"
        return "print -> parse: " + said[0][:width]


def printed_body(**config):
    """An observer: the body's printed lines under ``config`` (comments left out), one a line, and
    print -> parse; or the printer's error."""

    def observe(obj):
        try:
            text = obj.script(**config)
        except Exception as err:  # a fix's CannotPrint
            return f"script(): {type(err).__name__}: {str(err).splitlines()[0][:200]}"
        body = [x.strip() for x in text.splitlines() if x.startswith("    ")]
        lines = [x for x in body if not x.startswith("#")]
        return "\n".join([*lines, round_trip(obj, text, typed=True)])

    return observe


def printed_declarations(**config):
    """An observer: the cells' printed declarations under ``config`` and print -> parse."""

    def observe(func):
        text = func.script(**config)
        decls = [x.strip() for x in text.splitlines() if "scalar" in x or ": T." in x][1:]
        return " | ".join(decls) + " || " + round_trip(func, text, typed=False)

    return observe


def as_is(value):
    return value


def one_cell(dtype, scope="local", annotations=None, store=as_is, plus_one=True):
    """A one-element ``dtype`` cell in ``scope`` with ``annotations``, set to ``store(x)`` of the
    parameter x and evaluated (plus one when ``plus_one``)."""
    scalar = getattr(T, dtype)
    one = tvm.tirx.const(1, dtype)
    read = (lambda value: value + one) if plus_one else as_is

    @T.prim_func
    def func(x: scalar):
        c = T.alloc_buffer((1,), dtype, scope=scope, annotations=annotations)
        c[0] = store(x)
        T.evaluate(read(c[0]))

    return lambda: func


@T.prim_func
def shared_and_global(x: T.float32, y: T.int32):
    d = T.alloc_buffer((1,), "float32", scope="shared")
    e = T.alloc_buffer((1,), "int32", scope="global")
    d[0] = x
    e[0] = y + 1
    T.evaluate(d[0] + T.Cast("float32", e[0]))


@T.prim_func
def annotated_beside_counter(x: T.float32, A: T.Buffer((4,), "float32")):
    c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
    k = T.alloc_local((1,), "int32")
    c[0] = x
    k[0] = 0
    for i in range(4):
        A[i] = c[0]
        k[0] = k[0] + 1


@T.prim_func
def plain_then_annotated(x: T.float32):
    a = T.alloc_local((1,), "float32")
    c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
    a[0] = x
    c[0] = a[0] + x
    T.evaluate(c[0])


@T.prim_func
def annotated_local_and_shared(x: T.float32):
    c = T.alloc_local((1,), "float32", annotations={"pragma_x": 1})
    s = T.alloc_buffer((1,), "float32", scope="shared", annotations={"pragma_x": 1})
    c[0] = x
    s[0] = c[0]
    T.evaluate(s[0] + T.float32(1))


def double(value):
    return value * T.float16(2)


DEMOS = {
    # unannotated shared and global cells: the wrong fix keeps their sugar (they parse back local)
    "blind2-annotations-only": Demo(lambda: shared_and_global, printed_body()),
    # an annotated cell beside a plain int32 counter: the wrong fix leaves the counter's
    # T.local_scalar(T.int32), which does not parse
    "blind2-changed-cell-dtypes": Demo(lambda: annotated_beside_counter, printed_body()),
    # a cell annotated with pragma_keep: the wrong fix drops the sugar for device_type only
    "blind2-device-type-only": Demo(
        one_cell("float32", annotations={"pragma_keep": 1}, plus_one=False), printed_body()
    ),
    # an annotated cell after a plain one: the wrong fix looks at the first cell only
    "blind2-first-cell-only": Demo(lambda: plain_then_annotated, printed_body()),
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
        lambda: annotated_local_and_shared, printed_declarations()
    ),
    # a plain local cell printed unsugared: the wrong fix prints T.local_scalar(T.float32), which
    # does not parse
    "blind3-unsugared-dtype-constructor": Demo(
        one_cell("float32"), printed_declarations(syntax_sugar=False)
    ),
}
