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
"""Wrong fixes of the one-element-buffer printer report: variants of
bugs/printer_param_data/reference_fix.py, each a mistake in one step of patch 0008 (which names
are scalar names; which shorthand sites ask)."""

import ast

from bugs.printer_param_data import reference_fix as fix
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "data-only": "only the buffer expression (`A.buffer.data` -> `A.data`) follows the name's "
    "definition; loads and stores keep the shorthand",
    "no-stores": "loads and the buffer expression follow the name's definition, stores keep "
    "the shorthand (`A = v`)",
    "every-name": "no name counts as a scalar name: cells lose the shorthand too",
    "sugar-cells-only": "only the `c: T.float32` sugar records a scalar name, not "
    "`T.decl_scalar` / `T.local_scalar` / `T.alloc_scalar`",
    "first-parameter-only": "only a function's first one-element buffer parameter loses the "
    "shorthand: a second one still prints through it",
    "module-wide-scalar-names": "the scalar names are collected over the whole module, not per "
    "function: a buffer named as another function's scalar keeps the shorthand",
}


def _no_scalar_names(func):
    del func
    return set()


def _annotated_cells_only(func):
    return {
        n.target.id
        for n in ast.walk(func)
        if isinstance(n, ast.AnnAssign) and fix._is_scalar_syntax(n)
    }


def _first_parameter_only(func):
    params = [p.name for p in func.params if fix._is_shorthand(p)]
    return _REFERENCE["shorthand_buffers"](func) - set(params[1:])


def _module_wide_rewrite(text, obj, shorthand=None):
    funcs = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef)]
    everywhere = set().union(*(_REFERENCE["scalar_names"](f) for f in funcs))
    fix.scalar_names = lambda func: everywhere
    try:
        return _REFERENCE["rewrite"](text, obj, shorthand)
    finally:
        fix.scalar_names = _REFERENCE["scalar_names"]


_REFERENCE = {
    "shorthand_buffers": fix.shorthand_buffers,
    "scalar_names": fix.scalar_names,
    "rewrite": fix.rewrite,
}

_PATCHES = {
    "data-only": {"SITES": ("data",)},
    "no-stores": {"SITES": ("data", "load")},
    "every-name": {"scalar_names": _no_scalar_names},
    "sugar-cells-only": {"scalar_names": _annotated_cells_only},
    "first-parameter-only": {"shorthand_buffers": _first_parameter_only},
    "module-wide-scalar-names": {"rewrite": _module_wide_rewrite},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, _PATCHES[name])
