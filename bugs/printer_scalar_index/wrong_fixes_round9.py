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
"""Blind round 9 (blind9c): wrong fixes of patch 0011 (a scalar name's access prints through
the shorthand only at an int32 index 0), each the reference fix's text with one step of the
C++ changed."""

WRONG_FIXES = {
    "blind9-load-site-missed": (
        "IsScalarIndex joins the BufferStore dispatch only: a load at another index still "
        "prints as the bare name"
    ),
    "blind9-store-site-missed": (
        "IsScalarIndex joins the BufferLoad dispatch only: a store at another index still "
        "prints as `B = v`"
    ),
    "blind9-any-int-zero": (
        "IsScalarIndex tests is_zero alone, not the index's int32 type: T.int64(0) prints as "
        "the shorthand and parses back as an int32 0"
    ),
    "blind9-merge-old-test": (
        "the first-store merge of utils.h keeps is_zero(indices[0]): `c[T.int64(0)] = v` after "
        "a cell's declaration still merges into `c: T.float32 = v`"
    ),
    "blind9-proved-zero": (
        "IsScalarIndex simplifies the index before is_zero: `B[i - i]` prints as `B`, which "
        "parses back at the constant 0"
    ),
    "blind9-32-bit-zero": (
        "IsScalarIndex compares the index type's bits (32), not the type: a uint32 0 prints as "
        "the shorthand and parses back as an int32 0"
    ),
}

_INDEX = 'index.value == 0 and str(index.ty.dtype) == "int32"'

EDITS = {
    "blind9-load-site-missed": [('SITES = ("store", "load")', 'SITES = ("store",)')],
    "blind9-store-site-missed": [('SITES = ("store", "load")', 'SITES = ("load",)')],
    "blind9-any-int-zero": [(_INDEX, "index.value == 0")],
    "blind9-merge-old-test": [
        (
            "    here = tirx.BufferLoad(node.buffer, [_zero()])\n",
            "    here = tirx.BufferLoad(node.buffer, [_zero()])\n"
            "    if all(isinstance(i, tirx.IntImm) and i.value == 0 for i in node.indices):\n"
            "        here = _zero()  # the merge tests is_zero(indices[0]) alone\n",
        ),
        (
            '        access = f"{_buffer_text(call.args[2], text)}[{indices}]"\n'
            "        if kind == LOAD:\n",
            "        access = (\n"
            '            "" if isinstance(call.args[2], ast.Constant)\n'
            '            else f"{_buffer_text(call.args[2], text)}[{indices}]"\n'
            "        )\n"
            "        if isinstance(parent, ast.AnnAssign) and parent.value is call:\n"
            "            start, end = parent, parent\n"
            "            target = ast.get_source_segment(text, parent.target)\n"
            "            ann = ast.get_source_segment(text, parent.annotation)\n"
            '            new = f"{target}: {ann} = {ast.get_source_segment(text, call.args[3])}"\n'
            "        elif kind == LOAD:\n",
        ),
    ],
    "blind9-proved-zero": [
        (
            "    index = indices[0]\n",
            "    import tvm.sym\n\n    index = tvm.sym.Analyzer().simplify(indices[0])\n",
        )
    ],
    "blind9-32-bit-zero": [(_INDEX, 'index.value == 0 and str(index.ty.dtype)[-5:] == "int32"')],
}
