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
"""Blind round 7 wrong fixes of the printer_param_data reference fix (patch 0008)."""

import ast

from bugs.printer_param_data import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind7-store-site-unchanged": "the BufferStore dispatch keeps IsScalar() instead of "
    "IsScalarName: a store to a one-element parameter still prints as `C = v`",
    "blind7-load-site-unchanged": "the BufferLoad dispatch keeps IsScalar() instead of "
    "IsScalarName: a load of a one-element parameter (here inside an index) still prints bare",
    "blind7-var-site-unchanged": "the tirx::Var dispatch keeps IsScalar(): a one-element "
    "parameter's data still prints as `S.buffer.data` (FlattenBuffer's view of it)",
    "blind7-decl-scalar-not-defined": "DefineScalarName is missing from BufferDecl's decl_scalar "
    "branch: a T.decl_scalar name is printed as a buffer (`c[0]`)",
    "blind7-alloc-scalar-not-defined": "DefineScalarName is missing from BufferDecl's "
    "alloc_buffer scalar branch: a T.shared_scalar name is printed as a buffer (`c[0]`)",
    "blind7-sugar-not-defined": "DefineScalarName is missing from AllocBufferDoc's sugar "
    "(`c: T.float32`): later accesses of the cell print as `c[0]`",
    "blind7-module-wide-names": "scalar names are recorded in the module's frame, not the "
    "defining function's: a parameter named as another function's cell prints as the shorthand",
}

_ALL = [set()]


def _module_wide_scalar_names(func):
    return _ALL[0]


def _module_wide_rewrite(text, obj, shorthand=None):
    found = set()
    try:
        tree = ast.parse(text)
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef):
                found |= _ORIG_SCALAR_NAMES(func)
    except SyntaxError:
        pass
    _ALL[0] = found
    return _ORIG_REWRITE(text, obj, shorthand)


_ORIG_SCALAR_NAMES = fix.scalar_names
_ORIG_REWRITE = fix.rewrite


def _no_sugar(node):
    if isinstance(node, ast.AnnAssign):
        return False
    return _ORIG_IS_SCALAR_SYNTAX(node)


_ORIG_IS_SCALAR_SYNTAX = fix._is_scalar_syntax

PATCHES = {
    "blind7-store-site-unchanged": {"SITES": ("data", "load")},
    "blind7-load-site-unchanged": {"SITES": ("data", "store")},
    "blind7-var-site-unchanged": {"SITES": ("store", "load")},
    "blind7-decl-scalar-not-defined": {
        "SCALAR_CALLS": {"local_scalar", "alloc_scalar", "shared_scalar"}
    },
    "blind7-alloc-scalar-not-defined": {"SCALAR_CALLS": {"decl_scalar"}},
    "blind7-sugar-not-defined": {"_is_scalar_syntax": _no_sugar},
    "blind7-module-wide-names": {
        "scalar_names": _module_wide_scalar_names,
        "rewrite": _module_wide_rewrite,
    },
}


def install(name):
    return patched_install(fix, PATCHES[name])
