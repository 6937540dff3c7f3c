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
"""Blind round 6 demos of the scalar-name-index wrong fixes (apache/tvm): print -> parse."""

import tvm_ffi

import tvm
import tvm.script
from harness.blind_demo import Demo, message
from tvm.script import tirx as T


def round_trip(func):
    """The printed lines naming B or c, and whether print -> parse gives ``func`` back."""
    text = func.script()
    lines = [x.strip() for x in text.splitlines() if "B" in x or "c" in x.split("=")[0]]
    try:
        tvm.ir.assert_structural_equal(func, tvm.script.from_source(text))
        verdict = "round-trips"
    except Exception as err:  # where they differ, or the parser's error
        verdict = f"{type(err).__name__}: {message(err)[:120]}"
    return [*lines[-3:], verdict]


def stmt_repr(func):
    """repr of the function's loop (a statement): its printed store."""
    loops = []

    def visit(node):
        if isinstance(node, tvm.tirx.For):
            loops.append(node)
        return tvm_ffi.WalkResult.ADVANCE

    tvm_ffi.structural_walk(func.body, visit, order="pre")
    loop = loops[0]
    return [x.strip() for x in repr(loop).splitlines() if "=" in x]


def load_at_loop_var():
    @T.prim_func
    def main(a: T.handle("float32", "global"), C: T.Buffer((4,), "float32"), n: T.int32):
        B = T.decl_buffer((1,), "float32", data=a)
        for i in range(n):
            C[i] = B[i] * T.float32(2)

    return main


def store_at_loop_var():
    @T.prim_func
    def main(a: T.handle("float32", "global"), x: T.float32, n: T.int32):
        B = T.decl_buffer((1,), "float32", data=a)
        for i in range(n):
            B[i] = x

    return main


def store_at_int64_zero():
    @T.prim_func
    def main(a: T.handle("float32", "global"), x: T.float32):
        B = T.decl_buffer((1,), "float32", data=a)
        B[T.int64(0)] = x

    return main


DEMOS = {
    "blind6-stores-only": Demo(load_at_loop_var, round_trip),
    "blind6-loads-only": Demo(store_at_loop_var, round_trip),
    "blind6-zero-of-any-dtype": Demo(store_at_int64_zero, round_trip),
    "blind6-main-buffer-attr": Demo(store_at_loop_var, round_trip),
    "blind6-store-value-as-index": Demo(store_at_loop_var, round_trip),
    "blind6-no-stmt-repr": Demo(store_at_loop_var, stmt_repr),
}
