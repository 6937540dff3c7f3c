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
"""Blind round 5: demos of the printer_scalar_index wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo, message

# the functions of the demos, as TVMScript
SOURCES = {
    "int64_load": """
def main(a: T.handle("float32"), C: T.Buffer((4,), "float32")):
    B = T.decl_buffer((1,), "float32", data=a)
    C[0] = B[T.int64(0)]
""",
    "const_store": """
def main(a: T.handle("float32"), x: T.float32):
    B = T.decl_buffer((1,), "float32", data=a)
    B[1] = x
""",
    "loop_load": """
def main(a: T.handle("float32"), C: T.Buffer((4,), "float32")):
    B = T.decl_buffer((1,), "float32", data=a)
    for i in range(2):
        C[i] = B[i]
""",
    "loop_store": """
def main(a: T.handle("int32"), n: T.int32):
    B = T.decl_buffer((1,), "int32", data=a)
    for i in range(n):
        B[i] = i
""",
    "let_store": """
def main(a: T.handle("float32"), n: T.int32, x: T.float32):
    B = T.decl_buffer((1,), "float32", data=a)
    j: T.int32 = n - 1
    B[j] = x
""",
    "cell_int64": """
def main(x: T.float32):
    c = T.alloc_buffer((1,), "float32", scope="local")
    c[T.int64(0)] = x
    T.evaluate(c[0])
""",
    "param_loop": """
def main(A: T.Buffer((1,), "float32"), C: T.Buffer((4,), "float32")):
    for i in range(1):
        C[i] = A[i] + T.float32(1)
""",
}


def parse(key):
    """The PrimFunc of ``SOURCES[key]``."""
    import tvm.script
    from tvm.script import tirx as T

    text = "@T.prim_func(check_well_formed=False)" + SOURCES[key]
    return tvm.script.from_source(text, extra_vars={"T": T}, check_well_formed=False)


def round_trip(obj):
    """Observer: the printed body and whether parsing it back gives the program."""
    import tvm_ffi

    import tvm.script

    try:
        text = obj.script()
    except Exception as err:  # the result: the printer refuses
        return f"print: {type(err).__name__}: {message(err)[:160]}"
    body = " / ".join(x.strip() for x in text.splitlines() if x.startswith("    "))
    try:
        back = tvm.script.from_source(text, check_well_formed=False)
        same = tvm_ffi.structural_equal(obj, back)
        verdict = "round-trips" if same else "parses back as another program"
    except Exception as err:  # the result: the text does not parse
        verdict = f"{type(err).__name__}: {message(err)[:160]}"
    return f"{body} || {verdict}"


def body_repr(func):
    """Observer: ``repr`` of the function's body, a statement."""
    return " / ".join(x.strip() for x in repr(func.body).splitlines())


def series_round_trip(obj):
    """Observer: ``round_trip`` with the printer of the series, patch 0005 and 0008's fixes
    under this one (the installed fix of this report wraps them)."""
    import tvm.runtime.script_printer as printer
    from bugs.printer_cell import reference_fix as cell
    from bugs.printer_param_data import reference_fix as param
    from bugs.printer_scalar_index import reference_fix as index

    outer = printer._script
    original = outer.__closure__[outer.__code__.co_freevars.index("original")].cell_contents
    printer._script = index._script(param._script(cell._script(original)))
    try:
        return round_trip(obj)
    finally:
        printer._script = outer


DEMOS = {
    "blind5-index-ignores-width": Demo(lambda: parse("int64_load"), round_trip),
    "blind5-index-any-constant": Demo(lambda: parse("const_store"), round_trip),
    "blind5-index-stores-only": Demo(lambda: parse("loop_load"), round_trip),
    "blind5-index-loads-only": Demo(lambda: parse("loop_store"), round_trip),
    "blind5-index-no-stmt-repr": Demo(lambda: parse("let_store"), body_repr),
    "blind5-index-merge-not-guarded": Demo(lambda: parse("cell_int64"), round_trip),
    "blind5-index-subscript-buffer-text": Demo(lambda: parse("param_loop"), series_round_trip),
}
