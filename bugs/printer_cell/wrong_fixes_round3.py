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
"""Third blind round: wrong fixes of printer_cell, each one small mistake in its reference fix.

The reference fix is bugs/printer_cell/reference_fix.py."""

import re

from bugs.printer_cell import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind3-annotations-only": "P1 keeps the sugar for any cell without annotations: the "
    "scope == local half of the condition is left out",
    "blind3-scope-only": "P1 keeps the sugar for any local cell: the annotations.empty() half "
    "of the condition is left out",
    "blind3-local-prefix-scope": "P1 tests the scope with a prefix (starts with 'local'), so a "
    "tagged local scope such as local.L0A still prints as the sugar",
    "blind3-local-scalar-drops-annotations": "P3: local_scalar takes annotations but does not "
    "pass them on to alloc_scalar",
    "blind3-shared-scalar-drops-annotations": "P3: shared_scalar takes annotations but does not "
    "pass them on to alloc_scalar",
    "blind3-alloc-scalar-dtype-constructor": "P2 prints the dtype string only in the "
    "local_scalar/shared_scalar branches; T.alloc_scalar (global or other scope) keeps T.float32",
    "blind3-unsugared-dtype-constructor": "P2 only where P1 turned the sugar off: a cell printed "
    "with syntax_sugar=False by the caller keeps T.<dtype> in its declaration",
}


def _annotations_only(obj, cells=None):
    cells = fix.scalar_cells(obj) if cells is None else cells
    return any(len(node.annotations) > 0 for node in cells)


def _scope_only(obj, cells=None):
    cells = fix.scalar_cells(obj) if cells is None else cells
    return any(fix._scope(node.buffer) != "local" for node in cells)


def _local_prefix(obj, cells=None):
    cells = fix.scalar_cells(obj) if cells is None else cells
    return any(
        len(node.annotations) > 0 or not fix._scope(node.buffer).startswith("local")
        for node in cells
    )


def _local_scalar_drops(dtype="float32", annotations=None):
    return fix.alloc_scalar(dtype, "local")


def _shared_scalar_drops(dtype="float32", annotations=None):
    return fix.alloc_scalar(dtype, "shared")


def _script_p2(pattern, only_when_p1):
    """The reference ``_script`` with P2 applied to the calls ``pattern`` names, and (when
    ``only_when_p1``) only when P1 switched the sugar off."""

    def make(original):
        def script(obj, config):
            cells = fix.scalar_cells(obj)
            sugar = config is None or config.syntax_sugar
            switched = False
            if sugar and fix.sugar_would_change(obj, cells):
                config = fix.without_sugar(config)
                switched = True
            text = original(obj, config)
            if only_when_p1 and not switched:
                return text
            for dtype in sorted({str(node.buffer.dtype) for node in cells}):
                text = re.sub(
                    rf"\bT\.({pattern})_scalar\(T\.{re.escape(dtype)}\b",
                    rf'T.\1_scalar("{dtype}"',
                    text,
                )
            return text

        script._printer_cell_fix = True
        return script

    return make


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind3-annotations-only":
        return patched_install(fix, {"sugar_would_change": _annotations_only})
    if name == "blind3-scope-only":
        return patched_install(fix, {"sugar_would_change": _scope_only})
    if name == "blind3-local-prefix-scope":
        return patched_install(fix, {"sugar_would_change": _local_prefix})
    if name == "blind3-local-scalar-drops-annotations":
        repl = {**fix._REPLACEMENTS, "local_scalar": _local_scalar_drops}
        return patched_install(fix, {"_REPLACEMENTS": repl})
    if name == "blind3-shared-scalar-drops-annotations":
        repl = {**fix._REPLACEMENTS, "shared_scalar": _shared_scalar_drops}
        return patched_install(fix, {"_REPLACEMENTS": repl})
    if name == "blind3-alloc-scalar-dtype-constructor":
        return patched_install(fix, {"_script": _script_p2("local|shared", False)})
    if name == "blind3-unsugared-dtype-constructor":
        return patched_install(fix, {"_script": _script_p2("alloc|local|shared", True)})
    raise ValueError(name)
