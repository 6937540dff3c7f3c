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
"""Programs on which the TVMScript printer's reference fix and each blind wrong fix differ
(harness/blind_demo.py; run with scripts/blind_demos.py --bug printer_scalar_index).

Each program holds a one-element buffer that the printer writes as a scalar name; what is
compared is the printed body and whether parsing the text gives the program back."""

import tvm
import tvm.script
from harness.blind_demo import Demo
from tvm.script import tirx as T


def round_trip(func):
    """The printed body's lines, and whether print -> parse is the identity (else its first
    line of difference)."""
    text = func.script()
    body = [x.strip() for x in text.splitlines() if x.startswith("    ")]
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
        verdict = "print -> parse: identity"
    except Exception as err:
        said = [x for x in str(err).strip().splitlines() if x.strip()]
        verdict = "print -> parse: " + said[0][:160]
    return " | ".join(body) + " || " + verdict


@T.prim_func
def int64_zero(a: T.handle("float32", "global"), x: T.float32):
    B = T.decl_buffer((1,), "float32", data=a)
    B[T.int64(0)] = B[T.int64(0)] + x


@T.prim_func
def store_at_loop_index(a: T.handle("float32", "global"), x: T.float32):
    B = T.decl_buffer((1,), "float32", data=a)
    for i in range(1):
        B[i] = x


@T.prim_func
def load_at_loop_index(a: T.handle("float32", "global"), C: T.Buffer((4,), "float32")):
    B = T.decl_buffer((1,), "float32", data=a)
    for i in range(1):
        C[i] = B[i] * T.float32(2)


@T.prim_func
def cell_first_stored_at_int64_zero(x: T.float32):
    c = T.alloc_local((1,), "float32")
    c[T.int64(0)] = x
    T.evaluate(c[0] + T.float32(1))


@T.prim_func
def issue_program(a: T.handle("float32", "global"), n: T.int32):
    B = T.decl_buffer((1,), "float32", data=a)
    for i in range(n):
        B[i] = B[i] + T.float32(1)


@T.prim_func
def ramp_load(a: T.handle("float32", "global"), C: T.Buffer((2,), "float32"), j: T.int32):
    B = T.decl_buffer((1,), "float32", data=a)
    C[T.Ramp(0, 1, 2)] = B[T.Ramp(j, 1, 2)]


def demo(func):
    return Demo(lambda: func, round_trip)


DEMOS = {
    # VALID: stored and loaded at T.int64(0): the wrong fix tests the zero, not its int32 type,
    # and prints the bare name, which parses back at an int32 0
    "blind3-int64-zero-shorthand": demo(int64_zero),
    # VALID: a store at a loop index: the wrong fix checks loads only and prints B = x (B[0])
    "blind3-load-site-only": demo(store_at_loop_index),
    # VALID: a cell first stored at T.int64(0): the wrong fix's merge prints c: T.float32 = x
    "blind3-merge-init-unchecked": demo(cell_first_stored_at_int64_zero),
    # VALID: the issue's B[i] = B[i] + 1: the wrong fix subscripts the name, which does not parse
    "blind3-name-not-buffer": demo(issue_program),
    # a two-lane load through a stride-1 Ramp: the wrong fix prints a region B.source[j:j + 2]
    "blind3-ramp-as-slice": demo(ramp_load),
    # VALID: a load at a loop index: the wrong fix checks stores only and prints the bare B (B[0])
    "blind3-store-site-only": demo(load_at_loop_index),
}
