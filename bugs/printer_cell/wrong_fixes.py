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
"""Wrong fixes of the TVMScript scalar sugar report: variants of bugs/printer_cell/reference_fix.py.

Each narrows which cells lose the sugar, or which annotations the builder takes, then installs
the reference fix.
"""

import tvm
from bugs.printer_cell import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "annotations-only": "only annotated cells lose the sugar: shared/global cells come back local",
    "scope-only": "only cells outside local scope lose the sugar: annotations are still dropped",
    "device-type-only": "only cells annotated with device_type lose the sugar (other keys dropped)",
    "no-builder-annotations": "the printer keeps the full form, the builder takes no annotations",
    "first-annotation-only": "the builder passes on a cell's first annotation only (a second key "
    "is dropped)",
    "first-cell-only": "only a function's first cell is checked: a later cell's annotations and "
    "scope are dropped",
}


def _annotated(obj, cells=None):
    return any(len(node.annotations) > 0 for node in fix.scalar_cells(obj))


def _non_local(obj, cells=None):
    return any(fix._scope(node.buffer) != "local" for node in fix.scalar_cells(obj))


def _device_type_annotated(obj, cells=None):
    return any("device_type" in node.annotations for node in fix.scalar_cells(obj))


def _first_cell_only(obj, cells=None):
    funcs = obj.functions.values() if isinstance(obj, tvm.IRModule) else [obj]
    firsts = [cell for func in funcs for cell in fix.scalar_cells(func)[:1]]
    return any(len(n.annotations) > 0 or fix._scope(n.buffer) != "local" for n in firsts)


def _first_annotation_only(dtype="float32", scope="global", annotations=None):
    first = dict(list(annotations.items())[:1]) if annotations else annotations
    return _REFERENCE["alloc_scalar"](dtype, scope, first)


def _without_annotations(dtype="float32", scope="global", annotations=None):
    del annotations
    return _REFERENCE["alloc_scalar"](dtype, scope)


_REFERENCE = {"alloc_scalar": fix.alloc_scalar}

# wrong fix -> {attribute of reference_fixes.printer_cell: its wrong replacement}
_PATCHES = {
    "annotations-only": {"sugar_would_change": _annotated},
    "scope-only": {"sugar_would_change": _non_local},
    "device-type-only": {"sugar_would_change": _device_type_annotated},
    "no-builder-annotations": {"alloc_scalar": _without_annotations},
    "first-annotation-only": {"alloc_scalar": _first_annotation_only},
    "first-cell-only": {"sugar_would_change": _first_cell_only},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, _PATCHES[name])
