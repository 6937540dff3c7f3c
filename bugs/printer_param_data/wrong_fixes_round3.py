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
"""Third blind round: wrong fixes of printer_param_data, each one small mistake in its fix
(bugs/printer_param_data/reference_fix.py): an edit of its text (harness/wrong_fixes.py: EDITS),
or, for the frame-by-frame lookup, a pass of its own added to the fix's ``edits`` (PATCHES)."""

import ast

from bugs.printer_param_data import reference_fix as fix
from bugs.printer_param_data.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind3-no-decl-scalar-name": "DefineScalarName is left out of BufferDecl's decl_scalar "
    "branch: a T.decl_scalar name prints as a buffer (B[0], B[0] = v)",
    "blind3-no-sugar-name": "DefineScalarName is left out of AllocBufferDoc's sugar: a cell "
    "written c: T.float32 prints its accesses as c[0]",
    "blind3-no-alloc-scalar-name": "DefineScalarName is left out of BufferDecl's alloc_buffer "
    "scalar branch (T.local_scalar/T.alloc_scalar/T.shared_scalar)",
    "blind3-data-site-unchanged": "the buffer Var dispatch keeps IsScalar(): a one-element "
    "parameter's data still prints as A.source.data",
    "blind3-load-site-unchanged": "the BufferLoad dispatch keeps IsScalar(): a load of a "
    "one-element parameter still prints as the bare name A",
    "blind3-innermost-frame-only": "IsScalarName looks only in the innermost frame "
    "(d->frames.back()), not every enclosing frame: a cell used inside a loop or if prints c[0]",
}

EDITS = {
    "blind3-no-decl-scalar-name": FIRST["blind-no-decl-scalar"],
    "blind3-no-sugar-name": FIRST["blind-sugar-not-scalar-name"],
    "blind3-no-alloc-scalar-name": [
        ('{"local_scalar", "alloc_scalar", "shared_scalar", "decl_scalar"}', '{"decl_scalar"}')
    ],
    "blind3-data-site-unchanged": FIRST["blind-no-data-site"],
    "blind3-load-site-unchanged": FIRST["blind-no-load-site"],
}

_COMPOUND = (ast.For, ast.While, ast.If, ast.With)


def _edits_innermost(func, shorthand):
    """The reference edits, plus the mistake: a scalar name used in a frame other than the one
    that defined it is taken for a buffer (``c`` -> ``c[0]``)."""
    out = _REF_EDITS(func, shorthand)
    scalars = fix.scalar_names(func)
    defined_in, uses = {}, []
    attr_values = {id(n.value) for n in ast.walk(func) if isinstance(n, ast.Attribute)}

    def visit(stmts, frame):
        for stmt in stmts:
            defining = set()
            if fix._is_scalar_syntax(stmt):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        defined_in.setdefault(t.id, frame)
                        defining.add(id(t))
            if isinstance(stmt, _COMPOUND):
                for field, value in ast.iter_fields(stmt):
                    if field in ("body", "orelse"):
                        visit(value, (id(stmt), field))
                    else:
                        for sub in value if isinstance(value, list) else [value]:
                            if isinstance(sub, ast.AST):
                                uses.extend((n, frame) for n in ast.walk(sub))
            else:
                uses.extend((n, frame) for n in ast.walk(stmt) if id(n) not in defining)

    visit(func.body, "function")
    for node, frame in uses:
        if (
            isinstance(node, ast.Name)
            and node.id in scalars
            and id(node) not in attr_values
            and defined_in.get(node.id, frame) != frame
        ):
            out.append((node, f"{node.id}[0]"))
    return out


_REF_EDITS = fix.edits


PATCHES = {"blind3-innermost-frame-only": {"edits": _edits_innermost}}
