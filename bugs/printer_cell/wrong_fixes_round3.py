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

from bugs.printer_cell import reference_fix as fix
from bugs.printer_cell.wrong_fixes import (
    _all,
    _blind_local_prefix_scope,
    _blind_local_scalar,
    _blind_shared_scalar,
    _script_with,
)
from bugs.printer_cell.wrong_fixes_round2 import _annotations_only
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


def _scope_only(obj, cells=None):
    cells = fix.scalar_cells(obj) if cells is None else cells
    return any(fix._scope(node.buffer) != "local" for node in cells)


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind3-annotations-only":
        return patched_install(fix, {"sugar_would_change": _annotations_only})
    if name == "blind3-scope-only":
        return patched_install(fix, {"sugar_would_change": _scope_only})
    if name == "blind3-local-prefix-scope":
        return patched_install(fix, {"sugar_would_change": _blind_local_prefix_scope})
    if name == "blind3-local-scalar-drops-annotations":
        repl = {**fix._REPLACEMENTS, "local_scalar": _blind_local_scalar}
        return patched_install(fix, {"_REPLACEMENTS": repl})
    if name == "blind3-shared-scalar-drops-annotations":
        repl = {**fix._REPLACEMENTS, "shared_scalar": _blind_shared_scalar}
        return patched_install(fix, {"_REPLACEMENTS": repl})
    if name == "blind3-alloc-scalar-dtype-constructor":
        return patched_install(fix, {"_script": _script_with(_all, "local|shared")})
    if name == "blind3-unsugared-dtype-constructor":
        return patched_install(fix, {"_script": _script_with(_all, p2_always=False)})
    raise ValueError(name)
