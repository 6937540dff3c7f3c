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
"""Blind round 8: demos of the one-element buffer printer report's wrong fixes
(round 8 of bugs/printer_param_data/wrong_fixes.toml), apache/tvm only.

Each program is printed (``script()``, with the syntax sugar or without it where the scalar
calls must be spelled out); the observed result is the printed function without the header
comments.
"""

from harness.blind_demo import Demo


def params_program():
    """One-element parameters: FlattenBuffer's re-declaration of ``A``, a load of each, a
    store into ``C``."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
        A_1 = T.decl_buffer((1,), data=A.data, layout=None)
        C[0] = A_1[0] + A[0]

    return main


def cells_program():
    """A cell written with the sugar (``e: T.float32 = v``), stored again and read inside a
    loop."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        e: T.float32 = A[0]
        e = e + T.float32(1)
        for i in range(4):
            A[i] = e

    return main


def local_scalar_program():
    """A T.local_scalar cell, stored and read in a loop (printed without the sugar)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        c = T.local_scalar("float32")
        c = A[1]
        for i in range(4):
            A[i] = c

    return main


def decl_scalar_program():
    """A T.decl_scalar cell over a buffer's data (printed without the sugar)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        c = T.decl_scalar("float32", data=A.data, scope="global", elem_offset=0)
        c = c + T.float32(1)
        A[1] = c

    return main


def siblings_program():
    """A cell ``c`` in one loop, a one-element view named ``c`` in the next."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        for i in range(2):
            c: T.float32 = A[i]
            A[i] = c + T.float32(1)
        for j in range(2):
            c = T.decl_buffer((1,), "float32", data=A.data)
            A[j + 2] = c[0]

    return main


def _printed(text):
    return "\n".join(x for x in text.splitlines() if x.strip() and not x.startswith("#"))


def printed(func):
    """The function as ``script()`` prints it."""
    return _printed(func.script())


def printed_plain(func):
    """The function as ``script(syntax_sugar=False)`` prints it."""
    return _printed(func.script(syntax_sugar=False))


DEMOS = {
    "blind8-data-site-missed": Demo(params_program, printed),
    "blind8-store-site-missed": Demo(params_program, printed),
    "blind8-load-site-missed": Demo(params_program, printed),
    "blind8-decl-scalar-unrecorded": Demo(decl_scalar_program, printed_plain),
    "blind8-alloc-scalar-unrecorded": Demo(local_scalar_program, printed_plain),
    "blind8-sugar-unrecorded": Demo(cells_program, printed),
    "blind8-innermost-frame": Demo(cells_program, printed),
    "blind8-by-name": Demo(siblings_program, printed),
}
