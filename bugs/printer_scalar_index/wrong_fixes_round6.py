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
"""Blind round 6: wrong fixes of the scalar-name-index reference fix (patch 0011)."""

from bugs.printer_scalar_index import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-stores-only": (
        "IsScalarIndex joins the BufferStore dispatch only; a load at i still "
        "prints as the bare name"
    ),
    "blind6-loads-only": (
        "IsScalarIndex joins the BufferLoad dispatch only; a store at i still prints as B = v"
    ),
    "blind6-zero-of-any-dtype": (
        "IsScalarIndex accepts a constant 0 of any integer type, so an "
        "int64 0 prints as the bare name"
    ),
    "blind6-main-buffer-attr": (
        "the fall-through prints a scalar name's buffer as B.buffer "
        "(main's spelling), which 0.27 does not parse"
    ),
    "blind6-store-value-as-index": (
        "the store's index list starts one argument early, so the "
        "stored value prints as its first index"
    ),
    "blind6-no-stmt-repr": (
        "only the printing entry point is changed; repr of a statement still drops the index"
    ),
}


def _zero_any_dtype(indices):
    if len(indices) != 1:
        return False
    index = indices[0]
    return isinstance(index, fix.tirx.IntImm) and index.value == 0


def _rewrite_value_as_index(text):
    # the reference rewrite with STORE's indices starting at argument 3 (the value)
    return _REWRITE(text, store_first=3)


def _make_rewrite():
    import ast

    def rewrite(text, store_first=4):
        while True:
            try:
                tree = ast.parse(text)
            except SyntaxError as err:
                raise fix.CannotPrint(f"does not parse: {err}") from None
            found = fix._innermost(tree)
            if found is None:
                return text
            call, parent = found
            at = fix._offsets(text)
            kind = fix._marker(call)
            first_index = store_first if kind == fix.STORE else 3
            indices = ", ".join(ast.get_source_segment(text, i) for i in call.args[first_index:])
            access = f"{fix._buffer_text(call.args[2], text)}[{indices}]"
            if kind == fix.LOAD:
                start, end, new = call, call, access
            elif isinstance(parent, ast.Assign) and parent.value is call:
                start, end = parent, parent
                new = f"{access} = {ast.get_source_segment(text, call.args[3])}"
            else:
                raise fix.CannotPrint("a marked store printed other than as an assignment")
            first = at(start.lineno, start.col_offset)
            last = at(end.end_lineno, end.end_col_offset)
            text = text[:first] + new + text[last:]

    return rewrite


_REWRITE = _make_rewrite()


def install(name):
    if name == "blind6-stores-only":
        return patched_install(fix, {"SITES": ("store",)})
    if name == "blind6-loads-only":
        return patched_install(fix, {"SITES": ("load",)})
    if name == "blind6-zero-of-any-dtype":
        return patched_install(fix, {"is_scalar_index": _zero_any_dtype})
    if name == "blind6-main-buffer-attr":
        return patched_install(fix, {"BUFFER_ATTR": "buffer"})
    if name == "blind6-store-value-as-index":
        return patched_install(fix, {"rewrite": _rewrite_value_as_index})
    if name == "blind6-no-stmt-repr":
        return patched_install(fix, {"_stmt_repr": lambda original: original})
    raise ValueError(name)
