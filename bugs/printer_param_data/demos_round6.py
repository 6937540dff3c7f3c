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
"""Blind round 6 demos of the printer_param_data wrong fixes (apache/tvm): print -> parse."""

import tvm
import tvm.script
from harness.blind_demo import Demo, message
from tvm.script import tirx as T


def round_trip(obj):
    """The printed body lines, and whether print -> parse gives ``obj`` back."""
    text = obj.script()
    lines = [x.strip() for x in text.splitlines() if x.startswith("        ") or "= " in x]
    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(text))
        verdict = "round-trips"
    except Exception as err:  # where they differ, or the parser's error
        verdict = f"{type(err).__name__}: {message(err)[:140]}"
    return [*lines[-4:], verdict]


def view_of_param():
    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), C: T.Buffer((4,), "float32")):
        V = T.decl_buffer((1,), "float32", data=A.data, layout=None)
        C[1] = V[0] * T.float32(2)

    return main


def store_in_loop():
    @T.prim_func
    def main(X: T.Buffer((4,), "float32"), C: T.Buffer((1,), "float32")):
        for i in range(4):
            C[0] = X[i]

    return main


def load_in_index():
    @T.prim_func
    def main(A: T.Buffer((1,), "int32"), C: T.Buffer((8,), "int32")):
        C[A[0] + 1] = T.int32(5)

    return main


def decl_scalar_cell():
    @T.prim_func
    def main(a: T.handle("float32", "global"), x: T.float32):
        B = T.decl_scalar("float32", data=a, scope="global")
        B = x
        B = B + x

    return main


def view_of_bigger_param():
    @T.prim_func
    def main(X: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32")):
        V = T.decl_buffer((1,), "float32", data=X.data)
        for i in range(4):
            C[i] = V[0] * T.float32(2)

    return main


def two_functions():
    @T.prim_func
    def f(A: T.Buffer((1,), "float32")):
        A[0] = T.float32(1)

    @T.prim_func
    def g(A: T.float32, C: T.Buffer((2,), "float32")):
        C[0] = A

    return tvm.IRModule({"f": f, "g": g})


def parses_back(obj):
    """The printed body lines, and whether the printed text parses and prints the same."""
    text = obj.script()
    lines = [x.strip() for x in text.splitlines() if x.startswith("        ") or "= " in x]
    try:
        again = tvm.script.from_source(text).script()
        verdict = "parses back, prints the same" if again == text else "parses back, prints other"
    except Exception as err:  # the parser's error
        verdict = f"{type(err).__name__}: {message(err)[:140]}"
    return [*lines[-4:], verdict]


def cell_and_param():
    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[0] = x
        c[0] = c[0] * x
        A[0] = c[0] + A[0]

    return main


DEMOS = {
    "blind6-no-data-site": Demo(view_of_param, round_trip),
    "blind6-no-store-site": Demo(store_in_loop, round_trip),
    "blind6-no-load-site": Demo(load_in_index, round_trip),
    "blind6-no-decl-scalar": Demo(decl_scalar_cell, round_trip),
    "blind6-params-only": Demo(view_of_bigger_param, parses_back),
    "blind6-module-wide-names": Demo(two_functions, round_trip),
    "blind6-no-sugar-cell": Demo(cell_and_param, round_trip),
}
