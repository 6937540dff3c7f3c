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
"""Demo program on which the reference fix and blind3-int64-zero-shorthand differ.

A VALID program: a one-element view B (printed T.decl_scalar) stored and loaded at T.int64(0), as
an int64-indexed pass leaves it; the reference prints B.source[T.int64(0)] and round-trips, the
wrong fix the bare name, which parses back at an int32 0."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

import tvm
import tvm.script
from harness.blind_demo import main
from tvm.script import tirx as T


def program():
    @T.prim_func
    def func(a: T.handle("float32", "global"), x: T.float32):
        B = T.decl_buffer((1,), "float32", data=a)
        B[T.int64(0)] = B[T.int64(0)] + x

    return func


def observe(func):
    text = func.script()
    body = [x.strip() for x in text.splitlines() if x.startswith("    ")]
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
        verdict = "print -> parse: identity"
    except Exception as err:
        said = [x for x in str(err).strip().splitlines() if x.strip()]
        verdict = "print -> parse: " + said[0][:160]
    return " | ".join(body) + " || " + verdict


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "printer_scalar_index", "blind3-int64-zero-shorthand"))
