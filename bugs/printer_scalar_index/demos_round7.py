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
"""Blind round 7 demos of the printer_scalar_index wrong fixes (apache/tvm): the printed body
of a small function with a one-element cell or scalar view, and whether print -> parse gives it
back."""

import tvm
import tvm.script
from harness.blind_demo import Demo
from tvm.script import tirx as T


def int64_zero_load():
    """A cell stored at [0] and loaded at an int64 0."""

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[0] = x
        A[1] = c[T.int64(0)] + T.float32(1.0)

    return main


def load_in_index():
    """An int32 cell loaded at a loop variable inside another buffer's index."""

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), k: T.int32):
        c = T.alloc_local((1,), "int32")
        c[0] = k
        for i in T.serial(1):
            A[c[i]] = T.float32(2.0)

    return main


def store_in_loop():
    """A cell stored at a loop variable, then read at [0]."""

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[0] = T.float32(0.0)
        for i in T.serial(1):
            c[i] = x + T.float32(3.0)
        A[0] = c[0]

    return main


def constant_one():
    """A scalar view at an offset of A, loaded at the constant 1 (the element after it)."""

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        c = T.decl_scalar("float32", A.data, "global", elem_offset=1)
        A[0] = c.source[1]

    return main


def view_store_at_var():
    """A scalar view at an offset of A, stored at a variable index."""

    @T.prim_func
    def main(A: T.Buffer((4,), "int32"), j: T.int32):
        c = T.decl_scalar("int32", A.data, "global", elem_offset=2)
        c.source[j] = j * 2

    return main


def int64_first_store():
    """A cell's first store, right after its allocation, at an int64 0."""

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), x: T.float32):
        c = T.alloc_local((1,), "float32")
        c[T.int64(0)] = x * T.float32(2.0)
        A[2] = c[0]

    return main


def round_trip(obj):
    """The printed statements (not the signature), then the round trip's verdict."""
    try:
        text = obj.script()
    except Exception as err:
        return f"print: {type(err).__name__}: {str(err).strip().splitlines()[0]}"
    lines = [x.strip() for x in text.splitlines() if x.startswith("    ") and "def " not in x]
    lines = [x for x in lines if not x.startswith(("@", "#", "T.func_attr"))]
    try:
        tvm.ir.assert_structural_equal(obj, tvm.script.from_source(text))
        verdict = "round trip: equal"
    except Exception as err:
        verdict = f"round trip: {type(err).__name__}: {str(err).strip().splitlines()[0][:200]}"
    return " | ".join([*lines, verdict])


DEMOS = {
    "blind7-any-zero": Demo(int64_zero_load, round_trip),
    "blind7-store-only": Demo(load_in_index, round_trip),
    "blind7-load-only": Demo(store_in_loop, round_trip),
    "blind7-any-constant": Demo(constant_one, round_trip),
    "blind7-merge-unguarded": Demo(int64_first_store, round_trip),
    "blind7-bare-name-fallback": Demo(view_store_at_var, round_trip),
}
