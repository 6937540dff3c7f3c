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
"""Blind round 8 (blind8c): wrong fixes of the scalar-name index printer report (patch 0011).

Each is the reference fix's text with one step of the C++ patch changed: IsScalarIndex added to
one dispatch of the two, IsScalarIndex without its int32 test or with an element-type test that
takes a broadcast 0, the load's new branch for a scalar name's buffer left out (its indices
through BufferIndices), and the first-store merge of utils.h left with its old guard.
bugs/printer_scalar_index/demos_round8.py shows each.
"""

WRONG_FIXES = {
    "blind8-store-site-only": "IsScalarIndex joins the BufferStore dispatch's test only: a load "
    "of a scalar name at i still prints as the bare name",
    "blind8-load-site-only": "IsScalarIndex joins the BufferLoad dispatch's test only: a store "
    "into a scalar name at i still prints as c = v",
    "blind8-any-type-zero": "IsScalarIndex tests size() == 1 && is_zero(indices[0]) without the "
    "int32 type: an access at T.int64(0) prints through the shorthand",
    "blind8-broadcast-zero": "IsScalarIndex tests the index's element type (int32 of any "
    "lanes), so is_zero's broadcast 0 passes: a vector load at Broadcast(0, 4) prints as c",
    "blind8-ramp-as-slice": "the BufferLoad dispatch's new branch for a scalar name is left out: "
    "the load prints through BufferIndices, a stride-1 ramp as a slice c.buffer[0:4]",
    "blind8-merge-guard-kept": "the first-store merge of utils.h keeps size() == 1 && "
    "is_zero(indices[0]): c[T.int64(0)] = v right after the cell merges into c: T.float32 = v",
}

_LOAD_INDICES = (
    '        indices = ", ".join(ast.get_source_segment(text, i) for i in call.args[first_index:])'
)

EDITS = {
    "blind8-store-site-only": [('SITES = ("store", "load")', 'SITES = ("store",)')],
    "blind8-load-site-only": [('SITES = ("store", "load")', 'SITES = ("load",)')],
    "blind8-any-type-zero": [
        (
            "return isinstance(index, tirx.IntImm) and index.value == 0 and "
            'str(index.ty.dtype) == "int32"',
            "return isinstance(index, tirx.IntImm) and index.value == 0",
        )
    ],
    "blind8-broadcast-zero": [
        (
            "    index = indices[0]\n",
            "    index = indices[0]\n"
            "    if isinstance(index, tirx.Broadcast):  # is_zero; int32 of any lanes\n"
            "        index = index.value\n",
        )
    ],
    "blind8-ramp-as-slice": [
        (
            _LOAD_INDICES,
            "        def as_index(node):\n"
            "            # BufferIndices: a stride-1 ramp prints as a slice\n"
            "            seg = ast.get_source_segment\n"
            "            if (\n"
            "                kind == LOAD\n"
            "                and isinstance(node, ast.Call)\n"
            "                and getattr(node.func, 'attr', '') == 'Ramp'\n"
            "                and seg(text, node.args[1]) == '1'\n"
            "            ):\n"
            "                base, lanes = seg(text, node.args[0]), seg(text, node.args[2])\n"
            "                return f'0:{lanes}' if base == '0' else f'{base}:{base} + {lanes}'\n"
            "            return seg(text, node)\n"
            "\n"
            '        indices = ", ".join(as_index(i) for i in call.args[first_index:])',
        )
    ],
    "blind8-merge-guard-kept": [
        (
            "    here = tirx.BufferLoad(node.buffer, [_zero()])\n"
            "    value = tirx.call_extern(dtype, STORE, here, node.value, *node.indices)",
            "    here = tirx.BufferLoad(node.buffer, [_zero()])\n"
            "    index = node.indices[0]\n"
            "    if len(node.indices) == 1 and isinstance(index, tirx.IntImm) "
            "and index.value == 0:\n"
            "        # the merge's old guard takes this store: nothing keeps it from the cell\n"
            "        here = tvm.ir.StringImm(node.buffer.name)\n"
            "    value = tirx.call_extern(dtype, STORE, here, node.value, *node.indices)",
        ),
        (
            '    if isinstance(node, ast.Name):\n        return f"{node.id}.{BUFFER_ATTR}"\n',
            '    if isinstance(node, ast.Name):\n        return f"{node.id}.{BUFFER_ATTR}"\n'
            "    if isinstance(node, ast.Constant):\n"
            '        return f"{node.value}.{BUFFER_ATTR}"\n',
        ),
        (
            "        else:\n"
            '            raise CannotPrint("a marked store printed other than as an assignment")',
            "        elif isinstance(parent, ast.AnnAssign) and parent.value is call:\n"
            "            start, end = call, call  # merged: c: T.float32 = v\n"
            "            new = ast.get_source_segment(text, call.args[3])\n"
            "        else:\n"
            '            raise CannotPrint("a marked store printed other than as an assignment")',
        ),
    ],
}
