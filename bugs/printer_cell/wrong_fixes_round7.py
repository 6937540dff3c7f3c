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
"""Blind round 7 wrong fixes of the printer_cell reference fix (patch 0005)."""

import re

from bugs.printer_cell import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind7-no-scope-check": "P1 adds only stmt->annotations.empty(): a one-element shared "
    "(or global) cell without annotations still prints as the sugar and parses back local",
    "blind7-no-annotation-check": 'P1 adds only buffer.scope() == "local": an annotated local '
    "cell still prints as the sugar and loses its annotations",
    "blind7-scope-prefix": 'P1 tests the scope with StartsWith("local"): a tagged local.L0A '
    "cell prints as the sugar and parses back plain local",
    "blind7-p2-shared-only": "P2's string dtype is written only in the shared_scalar branch of "
    "BufferDecl: an annotated local cell prints T.local_scalar(T.int32, ...), which does not parse",
    "blind7-p2-not-alloc-scalar": "P2's string dtype is written for local_scalar/shared_scalar "
    "but not the alloc_scalar (global) branch: a global cell prints T.alloc_scalar(T.float32)",
    "blind7-local-drops-annotations": "P3: local_scalar takes annotations but does not pass them "
    "on to alloc_scalar, so an annotated local cell parses back without them",
    "blind7-shared-drops-annotations": "P3: shared_scalar takes annotations but does not pass "
    "them on to alloc_scalar, so an annotated shared cell parses back without them",
    "blind7-p2-only-when-p1": "P2's string dtype is applied only where P1 refused the sugar; a "
    "plain local cell printed with syntax_sugar=False still prints T.local_scalar(T.float32)",
}


def _scope_sugar(check):
    def sugar_would_change(obj, cells=None):
        return any(check(node) for node in (fix.scalar_cells(obj) if cells is None else cells))

    return sugar_would_change


_SUGAR = {
    "blind7-no-scope-check": lambda n: len(n.annotations) > 0,
    "blind7-no-annotation-check": lambda n: fix._scope(n.buffer) != "local",
    "blind7-scope-prefix": lambda n: len(n.annotations) > 0
    or not fix._scope(n.buffer).startswith("local"),
}


def _script_p2(original, scopes, only_when_p1=False):
    """The reference ``_script`` with P2 applied only to the ``T.<scope>_scalar(`` in
    ``scopes`` (and, with ``only_when_p1``, only where P1 turned the sugar off)."""

    def script(obj, config):
        cells = fix.scalar_cells(obj)
        sugar = config is None or config.syntax_sugar
        changed = sugar and fix.sugar_would_change(obj, cells)
        if changed:
            config = fix.without_sugar(config)
        text = original(obj, config)
        if only_when_p1 and not changed:
            return text
        alt = "|".join(scopes)
        for dtype in sorted({str(node.buffer.dtype) for node in cells}):
            text = re.sub(
                rf"\bT\.({alt})_scalar\(T\.{re.escape(dtype)}\b",
                rf'T.\1_scalar("{dtype}"',
                text,
            )
        return text

    script._printer_cell_fix = True
    return script


def _local_scalar_drops(dtype="float32", annotations=None):
    return fix.alloc_scalar(dtype, "local")


def _shared_scalar_drops(dtype="float32", annotations=None):
    return fix.alloc_scalar(dtype, "shared")


def install(name):
    if name in _SUGAR:
        return patched_install(fix, {"sugar_would_change": _scope_sugar(_SUGAR[name])})
    if name == "blind7-local-drops-annotations":
        return patched_install(
            fix, {"_REPLACEMENTS": {**fix._REPLACEMENTS, "local_scalar": _local_scalar_drops}}
        )
    if name == "blind7-shared-drops-annotations":
        return patched_install(
            fix, {"_REPLACEMENTS": {**fix._REPLACEMENTS, "shared_scalar": _shared_scalar_drops}}
        )
    p2 = {
        "blind7-p2-shared-only": (("shared",), False),
        "blind7-p2-not-alloc-scalar": (("local", "shared"), False),
        "blind7-p2-only-when-p1": (("alloc", "local", "shared"), True),
    }
    if name not in p2:
        raise KeyError(name)
    scopes, only = p2[name]
    return patched_install(fix, {"_script": lambda original: _script_p2(original, scopes, only)})
