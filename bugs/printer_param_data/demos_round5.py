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
"""Blind round 5: demos of the printer_param_data wrong fixes (apache/tvm)."""

from harness.blind_demo import Demo, message

# the functions of the demos, as TVMScript (each demo parses one or two of them)
SOURCES = {
    "decl_scalar": """
def main(a: T.handle("float32"), C: T.Buffer((1,), "float32")):
    B = T.decl_buffer((1,), "float32", data=a)
    C[0] = B[0] * T.float32(2)
""",
    "cell_c": """
def a(x: T.float32):
    c: T.float32 = x
    T.evaluate(c)
""",
    "param_c": """
def b(c: T.Buffer((1,), "float32"), D: T.Buffer((4,), "float32")):
    D[1] = c[0]
""",
    "param_p": """
def a(P: T.Buffer((1,), "int32"), X: T.Buffer((4,), "int32")):
    X[0] = P[0]
""",
    "param_q": """
def b(Q: T.Buffer((1,), "int32"), X: T.Buffer((4,), "int32")):
    X[1] = Q[0] + 1
""",
    "match_shadow": """
def main(A: T.Buffer((1,), "float32"), C: T.Buffer((4,), "float32"), D: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.sblock("b"):
            vi = T.axis.spatial(4, i)
            A = T.match_buffer(C[vi], (1,), "float32")
            D[vi] = A[0] * T.float32(2)
""",
    "cell_shadow": """
def main(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
    C[0] = A[0]
    for i in range(2):
        A: T.float32 = T.float32(1)
        C[0] = C[0] + A
""",
    "indexed": """
def main(A: T.Buffer((1,), "float32"), C: T.Buffer((4,), "float32")):
    for i in range(1):
        C[i] = A[i] + T.float32(1)
""",
    "condition": """
def main(A: T.Buffer((1,), "float32"), C: T.Buffer((4,), "float32")):
    if A[0] > T.float32(0):
        C[0] = T.float32(1)
""",
    "data_arg": """
def main(A: T.Buffer((1,), "float32")):
    T.evaluate(T.call_extern("int32", "consume", A.data, 1))
""",
}


def parse(*keys):
    """The PrimFunc of ``SOURCES[key]``, or an IRModule of several."""

    import tvm.script
    from tvm.script import ir as I
    from tvm.script import tirx as T

    if len(keys) == 1:
        text = "@T.prim_func(check_well_formed=False)" + SOURCES[keys[0]]
    else:
        body = "".join(
            "    @T.prim_func(check_well_formed=False)\n"
            + "".join(f"    {x}\n" for x in SOURCES[k].strip("\n").splitlines())
            for k in keys
        )
        text = "@I.ir_module(check_well_formed=False)\nclass Module:\n" + body
    return tvm.script.from_source(text, extra_vars={"T": T, "I": I}, check_well_formed=False)


def round_trip(obj):
    """Observer: the printed body and whether parsing it back gives the program."""
    import tvm_ffi

    import tvm
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
    except Exception as err:  # the result: where print -> parse differs
        verdict = f"{type(err).__name__}: {message(err)[:160]}"
    return f"{body} || {verdict}"


DEMOS = {
    "blind5-param-no-decl-scalar": Demo(lambda: parse("decl_scalar"), round_trip),
    "blind5-param-names-module-wide": Demo(lambda: parse("cell_c", "param_c"), round_trip),
    "blind5-param-shorthand-first-function": Demo(lambda: parse("param_p", "param_q"), round_trip),
    "blind5-param-no-suffix-base": Demo(lambda: parse("match_shadow"), round_trip),
    "blind5-param-shadow-base": Demo(lambda: parse("cell_shadow"), round_trip),
    "blind5-param-no-lost-index-check": Demo(lambda: parse("indexed"), round_trip),
    "blind5-param-loads-in-assignments-only": Demo(lambda: parse("condition"), round_trip),
    "blind5-param-attr-buffer-only": Demo(lambda: parse("data_arg"), round_trip),
}
