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
"""Blind round 4 demos of the scalar index rule (apache/tvm): each program is printed and
parsed back; the result is its printed accesses and whether print -> parse gave it back."""

from harness.blind_demo import Demo, message


def _accesses(text):
    lines = [x.strip() for x in text.splitlines() if x.startswith("    ")]
    return " | ".join(x for x in lines if not x.startswith(("def ", "@", "class ", "T.func")))


def round_trip(obj):
    """The printed body, and 'round-trips' or the parser's / comparison's complaint."""
    import tvm
    import tvm.script

    text = obj.script()
    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(text))
        verdict = "round-trips"
    except Exception as err:  # a parse error or the first structural difference
        verdict = f"{type(err).__name__}: {message(err)}"
    return f"{_accesses(text)} => {verdict}"


def statement_repr(func):
    """``str`` of the function's body statement (the FFI's repr on the wheel)."""
    return " | ".join(x.strip() for x in str(func.body).splitlines() if x.strip())


def cell_at_int64_zero():
    """A cell's first store at T.int64(0), which the printer merges with its declaration."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[T.int64(0)] = x
        T.evaluate(c[0])

    return main


def view_in_loop():
    """The issue's program: a one-element view stored and loaded at a loop variable."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(a: T.handle("float32", "global"), n: T.int32):
        B = T.decl_buffer((1,), "float32", data=a)
        for i in range(n):
            B[i] = B[i] + T.float32(1)

    return main


def view_at_expression():
    """A one-element view stored and loaded at the expression n - 1 (in bounds for n == 1)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(a: T.handle("float32", "global"), n: T.int32, x: T.float32):
        B = T.decl_buffer((1,), "float32", data=a)
        B[n - 1] = B[n - 1] + x

    return main


def two_functions():
    """A module: f without a one-element buffer, then g, the issue's program."""
    import tvm
    from tvm.script import tirx as T

    @T.prim_func
    def f(A: T.Buffer((2,), "float32")):
        A[1] = T.float32(0)

    return tvm.IRModule({"f": f.with_attr("global_symbol", "f"), "g": view_in_loop()})


DEMOS = {
    "blind4-any-zero-index": Demo(cell_at_int64_zero, round_trip),
    "blind4-no-load-site": Demo(view_in_loop, round_trip),
    "blind4-no-store-site": Demo(view_in_loop, round_trip),
    "blind4-buffer-attr-main": Demo(view_in_loop, round_trip),
    "blind4-var-index-only": Demo(view_at_expression, round_trip),
    "blind4-first-function-only": Demo(two_functions, round_trip),
    "blind4-no-stmt-repr": Demo(view_in_loop, statement_repr),
}
