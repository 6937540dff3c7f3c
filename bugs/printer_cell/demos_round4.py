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
"""Blind round 4 demos of the printer's cell sugar (apache/tvm): each program is printed and
parsed back; the result is the printed declaration of its cells and whether print -> parse gave
the function back."""

from harness.blind_demo import Demo, message


def round_trip(**config):
    """An observer: print with ``config``, parse, compare."""

    def observe(func):
        import tvm
        import tvm.script

        text = func.script(**config)
        decls = [
            x.strip()
            for x in text.splitlines()
            if ("_scalar(" in x or ": T." in x) and "def " not in x
        ]
        try:
            tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
            verdict = "round-trips"
        except Exception as err:  # a parse error or the first structural difference
            verdict = f"{type(err).__name__}: {message(err)}"
        return f"{' | '.join(decls)} => {verdict}"

    return observe


def printed_head(**config):
    """An observer: the first two lines of the function as printed with ``config``."""

    def observe(func):
        lines = [x for x in func.script(**config).splitlines() if x and not x.startswith("#")]
        return " / ".join(lines[1:3])

    return observe


def cell(kind):
    """A function with one cell of ``kind``, stored and read."""
    from tvm.script import tirx as T

    if kind == "annotated local":

        @T.prim_func
        def main(x: T.float32):
            c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
            c[0] = x
            T.evaluate(c[0])

    elif kind == "shared":

        @T.prim_func
        def main(x: T.float32):
            c = T.alloc_buffer((1,), "float32", scope="shared")
            c[0] = x
            T.evaluate(c[0])

    elif kind == "global":

        @T.prim_func
        def main(x: T.float32):
            c = T.alloc_buffer((1,), "float32")
            c[0] = x
            T.evaluate(c[0])

    elif kind == "tagged local":

        @T.prim_func
        def main(x: T.float32):
            c = T.alloc_buffer((1,), "float32", scope="local.L0A")
            c[0] = x
            T.evaluate(c[0])

    elif kind == "annotated shared":

        @T.prim_func
        def main(x: T.float32):
            c = T.alloc_buffer((1,), "float32", scope="shared", annotations={"pragma": 1})
            c[0] = x
            T.evaluate(c[0])

    elif kind == "plain local":

        @T.prim_func
        def main(x: T.float32):
            c = T.alloc_local((1,), "float32")
            c[0] = x
            T.evaluate(c[0])

    return main


def two_dtypes():
    """An annotated float32 cell, then a shared int32 cell."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(x: T.float32):
        c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
        d = T.alloc_buffer((1,), "int32", scope="shared")
        c[0] = x
        d[0] = 1
        T.evaluate(c[0] + T.Cast("float32", d[0]))

    return main


DEMOS = {
    "blind4-annotations-only": Demo(lambda: cell("shared"), round_trip()),
    "blind4-scope-only": Demo(lambda: cell("annotated local"), round_trip()),
    "blind4-local-prefix-scope": Demo(lambda: cell("tagged local"), round_trip()),
    "blind4-no-alloc-scalar-dtype": Demo(lambda: cell("global"), round_trip()),
    "blind4-first-dtype-only": Demo(two_dtypes, round_trip()),
    "blind4-shared-scalar-drops-annotations": Demo(lambda: cell("annotated shared"), round_trip()),
    "blind4-dtype-string-only-when-desugared": Demo(
        lambda: cell("plain local"), round_trip(syntax_sugar=False)
    ),
    "blind4-fresh-config": Demo(
        lambda: cell("annotated local"), printed_head(name="kernel", indent_spaces=2)
    ),
}
