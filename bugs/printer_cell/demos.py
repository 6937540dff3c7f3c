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

Every program is valid; a demo prints it and parses the text back (harness/blind_printer.py)."""

from harness.blind_demo import Demo
from harness.blind_printer import one_cell, printed_body, printed_declarations
from tvm.script import tirx as T


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
