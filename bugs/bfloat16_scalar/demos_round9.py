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
"""Blind round 9: programs on which patch 0009's wrong fixes differ from its
reference fix (apache/tvm): host functions for llvm after BF16ComputeLegalize or
BF16StorageLegalize."""

from harness.blind_demo import Demo, from_script, on, script_or_error

COMPUTED_REINTERPRET = """
@T.prim_func
def main(A: T.Buffer((1,), "uint16"), n: T.int32):
    A[0] = T.reinterpret("uint16", T.Cast("bfloat16", n) + T.bfloat16(1))
"""

TIE_REINTERPRET = """
@T.prim_func
def main(A: T.Buffer((1,), "uint16")):
    A[0] = T.reinterpret("uint16", T.bfloat16(1.00390625))
"""

COMPUTED_LET = """
@T.prim_func
def main(A: T.Buffer((1,), "float32"), n: T.int32):
    x: T.let[T.bfloat16] = T.Cast("bfloat16", n) + T.bfloat16(1)
    A[0] = T.Cast("float32", x)
"""

CAST_OF_PARAM = """
@T.prim_func
def main(a: T.handle("float32", "global"), x: T.bfloat16):
    A = T.decl_buffer((1,), "float32", data=a)
    A[0] = T.Cast("float32", x)
"""

BITS_OF_PARAM = """
@T.prim_func
def main(a: T.handle("uint16", "global"), x: T.bfloat16):
    A = T.decl_buffer((1,), "uint16", data=a)
    A[0] = T.reinterpret("uint16", x)
"""


def program(text):
    return lambda: on("llvm", from_script(text))


def after(name):
    """Observer: the module after the pass ``name`` of tvm.tirx.transform, or its error."""

    def observe(mod):
        import tvm

        return script_or_error(lambda: getattr(tvm.tirx.transform, name)()(mod))

    return observe


DEMOS = {
    "blind9-nan-not-kept": Demo(program(COMPUTED_REINTERPRET), after("BF16ComputeLegalize")),
    "blind9-constant-tie-away": Demo(program(TIE_REINTERPRET), after("BF16ComputeLegalize")),
    "blind9-let-keeps-old-type": Demo(program(COMPUTED_LET), after("BF16ComputeLegalize")),
    "blind9-reinterpret-not-kept": Demo(
        program(COMPUTED_REINTERPRET), after("BF16ComputeLegalize")
    ),
    "blind9-cast-from-bf16-accepted": Demo(program(CAST_OF_PARAM), after("BF16StorageLegalize")),
    "blind9-params-not-remapped": Demo(program(BITS_OF_PARAM), after("BF16StorageLegalize")),
}
