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
"""Demo program on which the reference fix and blind3-innermost-frame-only differ.

A VALID program: a cell accumulated inside a loop (a frame below the one that defines it); the
reference prints c = c + A[i] and round-trips, the wrong fix c[0] = c[0] + A[i]."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

import tvm
import tvm.script
from harness.blind_demo import main
from tvm.script import tirx as T

CONFIG = {}


def program():
    @T.prim_func
    def func(A: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        c = T.alloc_local((1,), "float32")
        c[0] = T.float32(0)
        for i in range(8):
            c[0] = c[0] + A[i]
            C[i] = c[0]

    return func


def observe(func):
    text = func.script(**CONFIG)
    body = [x.strip() for x in text.splitlines() if x.startswith("    ")]
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
        verdict = "print -> parse: identity"
    except Exception as err:
        said = [x for x in str(err).strip().splitlines() if x.strip()]
        verdict = "print -> parse: " + said[0][:160]
    return " | ".join(body) + " || " + verdict


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "printer_param_data", "blind3-innermost-frame-only"))
