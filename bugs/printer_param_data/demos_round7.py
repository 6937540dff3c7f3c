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
"""Blind round 7 demos of the printer_param_data wrong fixes (apache/tvm): the printed body of
a small function or module and whether print -> parse gives it back."""

import tvm
import tvm.script
from harness.blind_demo import Demo
from tvm.script import ir as I
from tvm.script import tirx as T


def store_param():
    @T.prim_func
    def main(C: T.Buffer((1,), "float32"), x: T.float32):
        C[0] = x

    return main


def load_in_index():
    @T.prim_func
    def main(A: T.Buffer((1,), "int32"), B: T.Buffer((8,), "float32")):
        B[A[0]] = T.float32(1.0)

    return main


def second_param_view():
    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), S: T.Buffer((1,), "float32")):
        S_1 = T.decl_buffer((1,), data=S.data, layout=None)
        A[0] = S_1[0]

    return main


def decl_scalar_name():
    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        c = T.decl_scalar("float32", A.data, "global", elem_offset=2)
        c = c + T.float32(1.0)
        A[1] = c

    return main


def shared_scalar_name():
    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), x: T.float32):
        c = T.shared_scalar("float32")
        c = x
        A[0] = c + T.float32(1.0)

    return main


def sugar_cell():
    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[0] = x
        c[0] = c[0] + T.float32(1.0)
        A[0] = c[0]

    return main


def two_functions():
    @I.ir_module
    class Mod:
        @T.prim_func
        def f(x: T.float32, B: T.Buffer((1,), "float32")):
            A = T.local_scalar("float32")
            A = x
            B[0] = A

        @T.prim_func
        def g(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
            C[0] = A[0] + T.float32(1.0)

    return Mod


def round_trip(obj, sugar=True):
    """The printed statements (not the signatures), then the round trip's verdict."""
    try:
        text = obj.script(syntax_sugar=sugar)
    except Exception as err:
        return f"print: {type(err).__name__}: {str(err).strip().splitlines()[0]}"
    lines = [x.strip() for x in text.splitlines() if x.startswith("    ") and "def " not in x]
    lines = [x for x in lines if not x.startswith(("@", "#", "T.func_attr"))]
    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(text))
        verdict = "round trip: equal"
    except Exception as err:
        verdict = f"round trip: {type(err).__name__}: {str(err).strip().splitlines()[0][:200]}"
    return " | ".join([*lines, verdict])


DEMOS = {
    "blind7-store-site-unchanged": Demo(store_param, round_trip),
    "blind7-load-site-unchanged": Demo(load_in_index, round_trip),
    "blind7-var-site-unchanged": Demo(second_param_view, round_trip),
    "blind7-decl-scalar-not-defined": Demo(decl_scalar_name, round_trip),
    "blind7-alloc-scalar-not-defined": Demo(
        shared_scalar_name, lambda obj: round_trip(obj, sugar=False)
    ),
    "blind7-sugar-not-defined": Demo(sugar_cell, round_trip),
    "blind7-module-wide-names": Demo(two_functions, round_trip),
}
