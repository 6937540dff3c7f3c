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
"""Demo program on which the reference fix and blind3-local-scalar-drops-annotations differ.

A VALID program with an annotated local cell: both print T.local_scalar(..., annotations=...),
but under the wrong fix the parser drops the annotations."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

import tvm
import tvm.script
from harness.blind_demo import main
from tvm.script import tirx as T

CONFIG = {}


def program():
    @T.prim_func
    def func(x: T.int32):
        c = T.alloc_local((1,), "int32", annotations={"device_type": 1})
        c[0] = x
        T.evaluate(c[0] + 1)

    return func


def observe(func):
    text = func.script(**CONFIG)
    decls = [x.strip() for x in text.splitlines() if "scalar" in x or ": T." in x][1:]
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
        verdict = "print -> parse: identity"
    except Exception as err:
        said = [x for x in str(err).strip().splitlines() if x.strip()]
        verdict = "print -> parse: " + said[0][:200]
    return " | ".join(decls) + " || " + verdict


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "printer_cell", "blind3-local-scalar-drops-annotations"))
