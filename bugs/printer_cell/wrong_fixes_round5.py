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
"""Blind round 5: wrong fixes of the printer_cell reference fix (patch 0005)."""

import re

import tvm
import tvm.runtime.script_printer
from bugs.printer_cell import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-cell-scope-ignored": "P1 keeps the sugar whenever the allocation has no "
    "annotations, whatever the buffer's scope (a plain shared cell comes back local)",
    "blind5-cell-annotations-ignored": "P1 tests only the scope: an annotated local cell still "
    "prints as the sugar and loses its annotations",
    "blind5-cell-tagged-local": "P1 takes every scope that starts with 'local' (local.L0A) for "
    "local and keeps the sugar, which parses back as plain local",
    "blind5-cell-builder-drops-annotations": "P3: alloc_scalar takes annotations but does not "
    "pass them to alloc_buffer (T.alloc_scalar/local_scalar parse without them)",
    "blind5-cell-shared-drops-annotations": "P3: shared_scalar takes annotations but calls "
    "alloc_scalar without them",
    "blind5-cell-p2-first-cell-only": "P2 rewrites the dtype of the first cell only, leaving "
    "T.<scope>_scalar(T.int32) of a second cell of another dtype",
    "blind5-cell-p2-only-when-unsugared": "P2 runs only where P1 switched the sugar off, so a "
    "plain cell printed with syntax_sugar=False keeps T.local_scalar(T.float32)",
    "blind5-cell-config-reset": "P1's unsugared config is a fresh PrinterConfig(syntax_sugar="
    "False): the caller's other options (indent_spaces, ...) are dropped",
}


def _only_annotations(obj, cells=None):
    return any(
        len(node.annotations) > 0 for node in (fix.scalar_cells(obj) if cells is None else cells)
    )


def _only_scope(obj, cells=None):
    return any(
        fix._scope(node.buffer) != "local"
        for node in (fix.scalar_cells(obj) if cells is None else cells)
    )


def _tagged_local(obj, cells=None):
    return any(
        len(node.annotations) > 0 or not fix._scope(node.buffer).startswith("local")
        for node in (fix.scalar_cells(obj) if cells is None else cells)
    )


def _alloc_scalar_dropping(dtype="float32", scope="global", annotations=None):
    b = fix.builder
    buf = b.alloc_buffer(shape=(1,), dtype=dtype, scope=scope, layout=b.TileLayout(b.S[1]))
    scalar = buf[0]
    if b._current_meta_construction_scope() is not None:
        return scalar
    return b.scalar_wrapper(scalar)


def _local_scalar_dropping(dtype="float32", annotations=None):
    return _alloc_scalar_dropping(dtype, "local", annotations)


def _shared_scalar_dropping(dtype="float32", annotations=None):
    return fix.alloc_scalar(dtype, "shared")


def _script_variant(first_only=False, p2_only_unsugared=False):
    def make(original):
        def script(obj, config):
            cells = fix.scalar_cells(obj)
            sugar = config is None or config.syntax_sugar
            switched = False
            if sugar and fix.sugar_would_change(obj, cells):
                config = fix.without_sugar(config)
                switched = True
            text = original(obj, config)
            if p2_only_unsugared and not switched:
                return text
            dtypes = [str(node.buffer.dtype) for node in cells]
            chosen = dtypes[:1] if first_only else sorted(set(dtypes))
            for dtype in chosen:
                text = re.sub(
                    rf"\bT\.(alloc|local|shared)_scalar\(T\.{re.escape(dtype)}\b",
                    rf'T.\1_scalar("{dtype}"',
                    text,
                )
            return text

        script._printer_cell_fix = True
        return script

    return make


def _fresh_config(config):
    return tvm.runtime.script_printer.PrinterConfig(syntax_sugar=False)


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind5-cell-scope-ignored":
        return patched_install(fix, {"sugar_would_change": _only_annotations})
    if name == "blind5-cell-annotations-ignored":
        return patched_install(fix, {"sugar_would_change": _only_scope})
    if name == "blind5-cell-tagged-local":
        return patched_install(fix, {"sugar_would_change": _tagged_local})
    if name == "blind5-cell-builder-drops-annotations":
        table = dict(fix._REPLACEMENTS, alloc_scalar=_alloc_scalar_dropping,
                     local_scalar=_local_scalar_dropping)  # fmt: skip
        return patched_install(
            fix, {"alloc_scalar": _alloc_scalar_dropping, "_REPLACEMENTS": table}
        )
    if name == "blind5-cell-shared-drops-annotations":
        table = dict(fix._REPLACEMENTS, shared_scalar=_shared_scalar_dropping)
        return patched_install(fix, {"_REPLACEMENTS": table})
    if name == "blind5-cell-p2-first-cell-only":
        return patched_install(fix, {"_script": _script_variant(first_only=True)})
    if name == "blind5-cell-p2-only-when-unsugared":
        return patched_install(fix, {"_script": _script_variant(p2_only_unsugared=True)})
    if name == "blind5-cell-config-reset":
        return patched_install(fix, {"without_sugar": _fresh_config})
    raise ValueError(f"unknown wrong fix {name!r}")
