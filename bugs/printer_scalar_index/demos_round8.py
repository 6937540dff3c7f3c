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
"""Blind round 8: demos of the scalar-name index printer report's wrong fixes
(round 8 of bugs/printer_scalar_index/wrong_fixes.toml), apache/tvm only.

Each program has a cell (a scalar name) accessed at an index other than an int32 0, written
through its buffer (``c.source[i]`` on 0.27); the observed result is the function as
``script()`` prints it, without the header comments.
"""

from harness.blind_demo import Demo


def loop_program():
    """A cell stored and loaded at a loop variable."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), n: T.int32):
        c = T.local_scalar("float32")
        c = A[0]
        for i in range(n):
            c.source[i] = c.source[i] + A[i]
        A[1] = c

    return main


def int64_program():
    """A cell stored at T.int64(0) (not its first store) and loaded there."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        c = T.local_scalar("float32")
        c = A[0]
        c.source[T.int64(0)] = A[1]
        A[2] = c.source[T.int64(0)]

    return main


def vector_program():
    """Vector loads of a cell: at a broadcast 0 and at a ramp."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        c = T.local_scalar("float32")
        c = A[0]
        A[0:4] = c.source[T.Broadcast(0, 4)]
        A[4:8] = c.source[T.Ramp(0, 1, 4)]

    return main


def first_store_program():
    """A cell whose first store, right after it, is at T.int64(0)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        c = T.local_scalar("float32")
        c.source[T.int64(0)] = A[0]
        A[1] = c

    return main


def printed(func):
    """The function as ``script()`` prints it, without the header comments."""
    text = func.script()
    return "\n".join(x for x in text.splitlines() if x.strip() and not x.startswith("#"))


DEMOS = {
    "blind8-store-site-only": Demo(loop_program, printed),
    "blind8-load-site-only": Demo(loop_program, printed),
    "blind8-any-type-zero": Demo(int64_program, printed),
    "blind8-broadcast-zero": Demo(vector_program, printed),
    "blind8-ramp-as-slice": Demo(vector_program, printed),
    "blind8-merge-guard-kept": Demo(first_store_program, printed),
}
