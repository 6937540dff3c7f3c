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
"""Blind round 4: wrong fixes of the scalar index rule of the printer (patch 0011), each one
mistake in one step of bugs/printer_scalar_index/reference_fix.py, written as an edit of its text
(harness/wrong_fixes.py: EDITS); a mistake the first round made already reuses its edit."""

from bugs.printer_scalar_index.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind4-any-zero-index": "IsScalarIndex is tirx::is_zero alone, without the int32 check: "
    "c[T.int64(0)] = x still prints (merged) as `c: T.float32 = x` and parses back at an int32 0",
    "blind4-no-load-site": "IsScalarIndex joins the BufferStore dispatch only: a load B[i] still "
    "prints as the bare name B",
    "blind4-no-store-site": "IsScalarIndex joins the BufferLoad dispatch only: a store B[i] = v "
    "still prints as `B = v`",
    "blind4-buffer-attr-main": "the access through the buffer is written with main's `.buffer` "
    "instead of the released `.source`: B.buffer[i] does not parse on 0.27",
    "blind4-var-index-only": "only an index that is a variable counts as non-scalar: an "
    "expression index such as B[n - 1] still prints as the bare name",
    "blind4-first-function-only": "the accesses are marked in the first function of a module "
    "only: the second function's B[i] prints as the bare name",
    "blind4-no-stmt-repr": "only the printing entry point is fixed, not a statement's repr: "
    "str(stmt) still drops B[i]'s index",
}

_NO_STMT_REPR = [
    ("    stmt.__repr__ = _stmt_repr(stmt.__repr__)", "    stmt.__repr__ = stmt.__repr__")
]

EDITS = {
    "blind4-any-zero-index": FIRST["zero-of-any-dtype"],
    "blind4-no-load-site": FIRST["store-only"],
    "blind4-no-store-site": FIRST["load-only"],
    "blind4-buffer-attr-main": [('BUFFER_ATTR = "source"', 'BUFFER_ATTR = "buffer"')],
    "blind4-var-index-only": FIRST["variable-only"],
    "blind4-first-function-only": [
        (
            "def marked(obj):\n",
            "def marked(obj):\n"
            "    if isinstance(obj, tvm.IRModule):  # the other functions are left as they are\n"
            "        items = list(obj.functions.items())\n"
            "        if not items:\n"
            "            return obj\n"
            "        gvar, func = items[0]\n"
            "        copy = marked(func)\n"
            "        if copy.same_as(func):\n"
            "            return obj\n"
            "        return tvm.IRModule({**dict(items), gvar: copy}, attrs=obj.attrs)\n",
        )
    ],
    # the statement's repr is left as it was (the FFI's own printer)
    "blind4-no-stmt-repr": _NO_STMT_REPR,
}
