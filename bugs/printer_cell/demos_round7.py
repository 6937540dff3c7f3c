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
"""Blind round 7 demos of the printer_cell wrong fixes (apache/tvm): a one-element cell, its
printed declaration and whether print -> parse gives the function back."""

import tvm
import tvm.script
from harness.blind_demo import Demo
from tvm.script import tirx as T


def cell(dtype="float32", scope="local", annotations=None):
    """A function with one one-element cell ``c`` of ``dtype`` in ``scope`` (with
    ``annotations``), stored from a parameter and read back."""

    @T.prim_func
    def main(x: T.int32):
        c = T.alloc_buffer((1,), dtype, scope=scope, annotations=annotations)
        c[0] = T.Cast(dtype, x)
        T.evaluate(c[0])

    return main


def round_trip(sugar=True):
    """The observer: the cell's printed lines, then the round trip's verdict."""

    def observe(func):
        text = func.script(syntax_sugar=sugar)
        lines = [x.strip() for x in text.splitlines() if x.strip().startswith("c")]
        try:
            tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
            verdict = "round trip: equal"
        except Exception as err:
            verdict = f"round trip: {type(err).__name__}: {str(err).strip().splitlines()[0]}"
        return " | ".join([*lines, verdict])

    return observe


DEMOS = {
    "blind7-no-scope-check": Demo(lambda: cell(scope="shared"), round_trip()),
    "blind7-no-annotation-check": Demo(lambda: cell(annotations={"device_type": 1}), round_trip()),
    "blind7-scope-prefix": Demo(lambda: cell(scope="local.L0A"), round_trip()),
    "blind7-p2-shared-only": Demo(
        lambda: cell("int32", annotations={"device_type": 2}), round_trip()
    ),
    "blind7-p2-not-alloc-scalar": Demo(lambda: cell(scope="global"), round_trip()),
    "blind7-local-drops-annotations": Demo(
        lambda: cell("int8", annotations={"pragma_unroll": 4}), round_trip()
    ),
    "blind7-shared-drops-annotations": Demo(
        lambda: cell("float16", "shared", {"device_type": 2}), round_trip()
    ),
    "blind7-p2-only-when-p1": Demo(cell, round_trip(sugar=False)),
}
