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
"""Blind round 6 demos of the printer_cell wrong fixes (apache/tvm): print -> parse of cells."""

import tvm
import tvm.script
from harness.blind_demo import Demo, message
from tvm.script import tirx as T


def round_trip(func):
    """The printed cell declarations, and whether print -> parse gives ``func`` back."""
    text = func.script()
    lines = [
        x.strip() for x in text.splitlines() if "scalar" in x or (": T." in x and "def" not in x)
    ]
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
        verdict = "round-trips"
    except Exception as err:  # where they differ, or the parser's error
        verdict = f"{type(err).__name__}: {message(err)[:140]}"
    return [*lines, verdict]


def shared_cell():
    @T.prim_func
    def main(x: T.float32):
        d = T.alloc_buffer((1,), "float32", scope="shared")
        d[0] = x
        T.evaluate(d[0])

    return main


def annotated_local_cell():
    @T.prim_func
    def main(x: T.float32):
        c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
        c[0] = x
        T.evaluate(c[0])

    return main


def tagged_local_cell():
    @T.prim_func
    def main(x: T.float32):
        c = T.alloc_buffer((1,), "float32", scope="local.L0A")
        c[0] = x
        T.evaluate(c[0])

    return main


def annotated_shared_cell():
    @T.prim_func
    def main(x: T.float32):
        c = T.alloc_buffer((1,), "float32", scope="shared", annotations={"device_type": 1})
        c[0] = x
        T.evaluate(c[0])

    return main


def module_of_annotated_cell():
    return tvm.IRModule({"main": annotated_local_cell()})


def two_dtypes():
    @T.prim_func
    def main(x: T.float32, y: T.int32):
        c = T.alloc_buffer((1,), "float32", scope="shared")
        d = T.alloc_buffer((1,), "int32", scope="shared")
        c[0] = x
        d[0] = y
        T.evaluate(c[0] + T.Cast("float32", d[0]))

    return main


def plain_then_annotated():
    @T.prim_func
    def main(x: T.float32):
        c = T.alloc_local((1,), "float32")
        d = T.alloc_local((1,), "float32", annotations={"device_type": 1})
        c[0] = x
        d[0] = x
        T.evaluate(c[0] + d[0])

    return main


DEMOS = {
    "blind6-annotations-only": Demo(shared_cell, round_trip),
    "blind6-scope-only": Demo(annotated_local_cell, round_trip),
    "blind6-local-prefix": Demo(tagged_local_cell, round_trip),
    "blind6-shared-drops-annotations": Demo(annotated_shared_cell, round_trip),
    "blind6-module-not-checked": Demo(module_of_annotated_cell, round_trip),
    "blind6-first-dtype-only": Demo(two_dtypes, round_trip),
    "blind6-first-cell-only": Demo(plain_then_annotated, round_trip),
}
