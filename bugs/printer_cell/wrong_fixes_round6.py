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
"""Blind round 6: wrong fixes of the printer_cell reference fix (patch 0005)."""

import re

import tvm
from bugs.printer_cell import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-annotations-only": (
        "the sugar is refused only for an annotated cell; a shared cell "
        "without annotations still prints as local sugar"
    ),
    "blind6-scope-only": (
        "the sugar is refused only for a non-local scope; an annotated local "
        "cell still prints as sugar"
    ),
    "blind6-local-prefix": (
        "a scope that starts with 'local' counts as local, so a tagged "
        "local.L0A cell prints as the sugar"
    ),
    "blind6-shared-drops-annotations": (
        "shared_scalar takes annotations but does not pass them on to alloc_scalar"
    ),
    "blind6-module-not-checked": (
        "the sugar check runs for a PrimFunc printed alone, not for an IRModule that holds it"
    ),
    "blind6-first-dtype-only": (
        "the dtype of a cell's full declaration is written as a string for "
        "the first cell's dtype only"
    ),
    "blind6-first-cell-only": (
        "only the first one-element cell of the program is checked for annotations and scope"
    ),
}


def _annotations_only(obj, cells=None):
    return any(len(n.annotations) > 0 for n in (fix.scalar_cells(obj) if cells is None else cells))


def _scope_only(obj, cells=None):
    return any(
        fix._scope(n.buffer) != "local" for n in (fix.scalar_cells(obj) if cells is None else cells)
    )


def _local_prefix(obj, cells=None):
    return any(
        len(n.annotations) > 0 or not fix._scope(n.buffer).startswith("local")
        for n in (fix.scalar_cells(obj) if cells is None else cells)
    )


def _first_cell_only(obj, cells=None):
    cells = fix.scalar_cells(obj) if cells is None else cells
    return _REF_WOULD(obj, cells[:1])


_REF_WOULD = fix.sugar_would_change
_REF_SCRIPT = fix._script


def _shared_scalar(dtype="float32", annotations=None):
    return fix.alloc_scalar(dtype, "shared")


def _module_not_checked(original):
    fixed = _REF_SCRIPT(original)

    def script(obj, config):
        if isinstance(obj, tvm.IRModule):
            return original(obj, config)
        return fixed(obj, config)

    script._printer_cell_fix = True
    return script


def _first_dtype_only(original):
    def script(obj, config):
        cells = fix.scalar_cells(obj)
        sugar = config is None or config.syntax_sugar
        if sugar and fix.sugar_would_change(obj, cells):
            config = fix.without_sugar(config)
        text = original(obj, config)
        if cells:
            dtype = str(cells[0].buffer.dtype)
            text = re.sub(
                rf"\bT\.(alloc|local|shared)_scalar\(T\.{re.escape(dtype)}\b",
                rf'T.\1_scalar("{dtype}"',
                text,
            )
        return text

    script._printer_cell_fix = True
    return script


def install(name):
    if name == "blind6-annotations-only":
        return patched_install(fix, {"sugar_would_change": _annotations_only})
    if name == "blind6-scope-only":
        return patched_install(fix, {"sugar_would_change": _scope_only})
    if name == "blind6-local-prefix":
        return patched_install(fix, {"sugar_would_change": _local_prefix})
    if name == "blind6-first-cell-only":
        return patched_install(fix, {"sugar_would_change": _first_cell_only})
    if name == "blind6-shared-drops-annotations":
        replacements = dict(fix._REPLACEMENTS, shared_scalar=_shared_scalar)
        return patched_install(fix, {"_REPLACEMENTS": replacements})
    if name == "blind6-module-not-checked":
        return patched_install(fix, {"_script": _module_not_checked})
    if name == "blind6-first-dtype-only":
        return patched_install(fix, {"_script": _first_dtype_only})
    raise ValueError(name)
