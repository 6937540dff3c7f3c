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
"""Wrong fixes of the one-element-buffer printer report, each a mistake in one step of patch 0008
(which names are scalar names; which shorthand sites ask): the text of
bugs/printer_param_data/reference_fix.py with that step changed (harness/wrong_fixes.py: EDITS),
or, where the mistake adds a pass of its own (frames), the fix's ``edits`` replaced (PATCHES)."""

import ast

from bugs.printer_param_data import reference_fix as fix

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
    "blind-no-decl-scalar": "DefineScalarName in BufferDecl's alloc_buffer branch only: a "
    "T.decl_scalar name is not a scalar name (its load prints D[0], which does not parse)",
    "blind-no-store-site": "two of three sites: the BufferStore dispatch still asks IsScalar() "
    "(a parameter's store prints A = v)",
    "blind-no-load-site": "two of three sites: the BufferLoad dispatch still asks IsScalar() (a "
    "parameter's load prints A)",
    "blind-no-data-site": "two of three sites: the buffer Var dispatch still asks IsScalar() (a "
    "parameter's data prints A.source.data)",
    "blind-sugar-not-scalar-name": "AllocBufferDoc's c: T.float32 sugar does not call "
    "DefineScalarName (a sugared cell's load prints c[0])",
    "blind-innermost-frame-only": "IsScalarName looks in the innermost frame only (a scalar name "
    "used inside a loop prints c[0])",
    "blind-parameters-only": "the rule inverted: only parameters are taken for buffers, every "
    "other one-element name (a view B = A.view(1)) keeps the shorthand",
    "blind-allocated-addr-indexed": "allocated_addr keeps its hand-built buf[idx] (a scalar name "
    "prints allocated_addr=c[0], which does not parse)",
    "blind-scalar-names-by-name": "scalar names recorded by the buffer's name, not the buffer (a "
    "parameter A beside a cell also named A prints through the shorthand)",
}

_SITES = 'SITES = ("data", "store", "load")'
_SCALAR_CALLS = '"local_scalar", "alloc_scalar", "shared_scalar", "decl_scalar"}'
_NAMES = "    names -= scalar_names(func) | subscripted"
_EDITS_END = "    return out\n\n\nclass CannotPrint"
_SCALAR_NAMES_END = (
    "            found |= {t.id for t in targets if isinstance(t, ast.Name)}\n    return found\n"
)

EDITS = {
    "data-only": [(_SITES, 'SITES = ("data",)')],
    "no-stores": [(_SITES, 'SITES = ("data", "load")')],
    "every-name": [(_NAMES, "    names -= subscripted  # no name is a scalar name")],
    "sugar-cells-only": [
        (
            "        if _is_scalar_syntax(node):",
            "        if isinstance(node, ast.AnnAssign) and _is_scalar_syntax(node):",
        )
    ],
    "first-parameter-only": [
        (
            '    tvm_ffi.structural_walk(obj, visit, order="pre")\n    return found\n\n\n'
            "def indexed_shorthand",
            '    tvm_ffi.structural_walk(obj, visit, order="pre")\n'
            "    params = [p.name for p in obj.params if _is_shorthand(p)]\n"
            "    return found - set(params[1:])\n\n\n"
            "def indexed_shorthand",
        )
    ],
    "module-wide-scalar-names": [
        (_NAMES, "    names -= _EVERYWHERE | subscripted"),
        (
            "    defs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]\n",
            "    defs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]\n"
            "    global _EVERYWHERE\n"
            "    _EVERYWHERE = set().union(*(scalar_names(f) for f in defs))\n",
        ),
    ],
    "blind-no-decl-scalar": [(_SCALAR_CALLS, '"local_scalar", "alloc_scalar", "shared_scalar"}')],
    "blind-no-store-site": [(_SITES, 'SITES = ("data", "load")')],
    "blind-no-load-site": [(_SITES, 'SITES = ("data", "store")')],
    "blind-no-data-site": [(_SITES, 'SITES = ("store", "load")')],
    "blind-sugar-not-scalar-name": [
        (
            "        if _is_scalar_syntax(node):",
            "        if not isinstance(node, ast.AnnAssign) and _is_scalar_syntax(node):",
        )
    ],
    "blind-parameters-only": [
        (
            _EDITS_END,
            "    return [(node, new) for node, new in out if _names(node) <= params]\n\n\n"
            "class CannotPrint",
        )
    ],
    "blind-allocated-addr-indexed": [
        (
            _EDITS_END,
            "    for node in ast.walk(func):\n"
            '        if isinstance(node, ast.keyword) and node.arg == "allocated_addr":\n'
            "            if isinstance(node.value, ast.Name):\n"
            '                out.append((node.value, f"{node.value.id}[0]"))\n' + _EDITS_END,
        )
    ],
    "blind-scalar-names-by-name": [
        (
            _SCALAR_NAMES_END,
            _SCALAR_NAMES_END.replace("    return found\n", "")
            + "    bases = {_base(n) for n in found}\n"
            "    every = {n.id for n in ast.walk(func) if isinstance(n, ast.Name)}\n"
            "    every |= {a.arg for a in func.args.args}\n"
            "    return found | {n for n in every if _base(n) in bases}\n",
        )
    ],
}

# the reference fix's own, before any patch replaces it
_BLIND_EDITS = fix.edits


def _blind_parents(func):
    return {
        id(child): parent for parent in ast.walk(func) for child in ast.iter_child_nodes(parent)
    }


_BLIND_FRAMES = (ast.FunctionDef, ast.For, ast.While, ast.If, ast.With)


def _blind_frame(node, parents):
    node = parents.get(id(node))
    while node is not None and not isinstance(node, _BLIND_FRAMES):
        node = parents.get(id(node))
    return node


def _blind_innermost_frame_edits(func, shorthand):
    """The reference edits, and a scalar name used outside the frame that defines it printed as
    any buffer (its load c[0], its store c[0] = v)."""
    out = list(_BLIND_EDITS(func, shorthand))
    parents = _blind_parents(func)
    defined = {}  # frame -> the scalar names defined in it
    for node in ast.walk(func):
        if fix._is_scalar_syntax(node):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            defined.setdefault(id(_blind_frame(node, parents)), set()).update(names)
    every = set().union(*defined.values()) if defined else set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and fix._is_scalar_syntax(node):
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            here = defined.get(id(_blind_frame(node, parents)), set())
            if isinstance(target, ast.Name) and target.id in every - here:
                out.append((target, f"{target.id}[0]"))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            here = defined.get(id(_blind_frame(node, parents)), set())
            parent = parents.get(id(node))
            is_attr = isinstance(parent, ast.Attribute) and parent.value is node
            if node.id in every - here and not is_attr:
                out.append((node, f"{node.id}[0]"))
    return out


PATCHES = {"blind-innermost-frame-only": {"edits": _blind_innermost_frame_edits}}
