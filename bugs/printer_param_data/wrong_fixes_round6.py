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
"""Blind round 6: wrong fixes of the printer_param_data reference fix (patch 0008)."""

from bugs.printer_param_data import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-no-data-site": (
        "the buffer Var dispatch (A.buffer / A.source, buffer_data) still asks "
        "IsScalar(); only loads and stores ask for a scalar name"
    ),
    "blind6-no-store-site": (
        "BufferStore still asks IsScalar(); a store to a one-element parameter prints as A = v"
    ),
    "blind6-no-load-site": (
        "BufferLoad still asks IsScalar(); a load of a one-element parameter "
        "prints as the bare name"
    ),
    "blind6-no-decl-scalar": (
        "DefineScalarName is recorded for alloc/local/shared_scalar and the "
        "sugar but not for T.decl_scalar"
    ),
    "blind6-params-only": (
        "the shorthand is turned off for the function's parameters only; a "
        "one-element view (decl_buffer) still prints through it"
    ),
    "blind6-module-wide-names": (
        "the one-element buffers are collected over the whole module, not per function (frame)"
    ),
    "blind6-no-sugar-cell": (
        "DefineScalarName is called in BufferDecl's scalar branches but not "
        "for the c: T.float32 sugar of AllocBufferDoc"
    ),
}


def _no_sugar_cell(node):
    if isinstance(node, fix.ast.AnnAssign):
        return False
    return _REF_SYNTAX(node)


_REF_SYNTAX = fix._is_scalar_syntax


def _params_only_edits(func, shorthand):
    params = {a.arg for a in func.args.args}
    return [(node, new) for node, new in _REF_EDITS(func, shorthand) if fix._names(node) <= params]


_REF_EDITS = fix.edits


def _module_wide(obj):
    names = set()
    for func in fix.functions(obj).values():
        names |= fix.shorthand_buffers(func)
    return {name: names for name in fix.functions(obj)}


def install(name):
    if name == "blind6-no-data-site":
        return patched_install(fix, {"SITES": ("store", "load")})
    if name == "blind6-no-store-site":
        return patched_install(fix, {"SITES": ("data", "load")})
    if name == "blind6-no-load-site":
        return patched_install(fix, {"SITES": ("data", "store")})
    if name == "blind6-no-decl-scalar":
        return patched_install(fix, {"SCALAR_CALLS": fix.SCALAR_CALLS - {"decl_scalar"}})
    if name == "blind6-params-only":
        return patched_install(fix, {"edits": _params_only_edits})
    if name == "blind6-module-wide-names":
        return patched_install(fix, {"shorthand_by_function": _module_wide})
    if name == "blind6-no-sugar-cell":
        return patched_install(fix, {"_is_scalar_syntax": _no_sugar_cell})
    raise ValueError(name)
