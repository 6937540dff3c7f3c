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
"""Blind round 4 demos of the scalar-name rule (apache/tvm): each program is printed and
parsed back; the result is its printed body and whether print -> parse gave it back."""

from harness.blind_demo import Demo, message


def round_trip(obj):
    """The printed body lines, and 'round-trips' or the parser's / comparison's complaint."""
    import tvm
    import tvm.script

    text = obj.script()
    body = [x.strip() for x in text.splitlines() if x.startswith("    ") and "@" not in x]
    body = [x for x in body if not x.startswith(("def ", "class "))]
    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(text, check_well_formed=False))
        verdict = "round-trips"
    except Exception as err:  # a parse error or the first structural difference
        verdict = f"{type(err).__name__}: {message(err)}"
    return f"{' | '.join(body)} => {verdict}"


def view_of_parameter():
    """A decl_scalar view over a one-element parameter's data; a store into another one."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
        B = T.decl_buffer((1,), "float32", data=A.data)
        C[0] = B[0] + A[0]

    return main


def cell_sugar():
    """A plain local cell (printed as the sugar), updated, read into a two-element parameter."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(C: T.Buffer((2,), "float32"), x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[0] = x
        c[0] = c[0] + T.float32(1)
        C[1] = c[0]

    return main


def two_functions():
    """f stores into a one-element parameter A; g has a float32 parameter also named A."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func
    def f(A: T.Buffer((1,), "float32"), x: T.float32):
        A[0] = x + T.float32(1)

    @T.prim_func
    def g(A: T.float32, C: T.Buffer((2,), "float32")):
        C[0] = A + T.float32(1)

    return tvm.IRModule({"f": f.with_attr("global_symbol", "f"), "g": g})


def match_buffer():
    """A one-element match_buffer of an S-TIR block, read into a two-element buffer."""
    from tvm.script import tirx as T

    @T.prim_func(check_well_formed=False)
    def main(B: T.Buffer((4,), "float32"), C: T.Buffer((2,), "float32")):
        for i in range(4):
            with T.sblock("b"):
                vi = T.axis.spatial(4, i)
                A = T.match_buffer(B[vi : vi + 1], (1,), "float32")
                C[0] = A[0]

    return main


def shadowed_parameter():
    """A one-element parameter A read, then a cell also named A (printed A_1) in a loop."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), C: T.Buffer((2,), "float32"), x: T.float32):
        C[1] = A[0]
        for i in range(2):
            A = T.alloc_local((1,), "float32")
            A[0] = x
            C[0] = A[0]

    return main


DEMOS = {
    "blind4-no-decl-scalar": Demo(view_of_parameter, round_trip),
    "blind4-sugar-not-scalar-name": Demo(cell_sugar, round_trip),
    "blind4-module-wide-names": Demo(two_functions, round_trip),
    "blind4-no-store-site": Demo(view_of_parameter, round_trip),
    "blind4-main-attr-only": Demo(view_of_parameter, round_trip),
    "blind4-definition-as-store": Demo(match_buffer, round_trip),
    "blind4-scalar-names-by-base": Demo(shadowed_parameter, round_trip),
}
