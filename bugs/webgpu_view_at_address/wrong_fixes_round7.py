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
"""Blind round 7 wrong fixes of the WebGPU view-at-an-address fix (patch 0015): each a mistake in
the source test of CodeGenWebGPU::VisitStmt_(const DeclBufferNode*).

Each wrong build refuses, before the code generator runs, the first view its test does not
accept, and hands an accepted one to the released generator. Where the test needs no more than
the view's data, the wrong fix is the reference fix's text with those steps changed
(harness/wrong_fixes.py: EDITS); where it needs the kernel's names (its parameters and
allocations), it replaces the reference fix's build (PATCHES)."""

from bugs.webgpu_view_at_address import reference_fix as fix
from harness.tvm_line import WalkResult, ir, walk

WRONG_FIXES = {
    "blind7-wva-no-buffer-data": (
        "only a VarNode data is accepted (the buffer_data branch left "
        "out): a kernel's view of its parameter (data = buffer_data(A)) is refused"
    ),
    "blind7-wva-null-accepted": (
        "the test is `source != nullptr && !var_idmap_.count(source)`: a "
        "view at T.address_of(A[t]) (no source) passes to CodeGenC and stops at the old TypeError"
    ),
    "blind7-wva-params-only": (
        "the source is looked up among the kernel's parameters instead of "
        "var_idmap_: a workgroup (shared) allocation's buffer, and views of it, are refused"
    ),
    "blind7-wva-own-data": (
        "the source is taken from op->buffer->data (the declared buffer's own "
        "data, buffer_data of itself, not yet named) instead of op->data: every kernel buffer "
        "declaration is refused, a parameter's too"
    ),
    "blind7-wva-no-view-of-view": (
        "views do not register their data for the lookup (only "
        "parameters and allocations do): a view of another view is refused"
    ),
    "blind7-wva-check-after": (
        "CodeGenC::VisitStmt_ runs before the check: a refused view still "
        "stops at CodeGenC's error (a shared view at an address: the storage-scope InternalError)"
    ),
}

# the reference's build, refusing after the released generator fails, made to refuse first
_BUILD = (
    "        try:\n"
    "            return original(mod, target)\n"
    "        except REFUSED as err:\n"
    "            refused = first_refusal(mod)\n"
    "            if refused is None or not isinstance(err, released_error(refused[0])):\n"
    "                raise\n"
    "            raise ValueError(refusal_message(*refused)) from None\n",
    "        refused = first_refusal(mod)\n"
    "        if refused is not None:  # the wrong check refuses what it meets first\n"
    "            raise ValueError(refusal_message(*refused))\n"
    "        return original(mod, target)  # accepted: printed as the released generator does\n",
)
_VARIABLE = "    if isinstance(data, ir.Var):\n        return True\n    return (\n"

EDITS = {
    "blind7-wva-no-buffer-data": [
        (_VARIABLE, "    return isinstance(data, ir.Var)\n    return (\n"),
        _BUILD,
    ],
    # a source that is no variable, or no buffer_data at all (an address), is accepted
    "blind7-wva-null-accepted": [
        (
            "    return (\n        isinstance(data, ir.Call)\n",
            "    return not (\n        isinstance(data, ir.Call)\n",
        ),
        (
            "        and len(data.args) == 1\n        and isinstance(data.args[0], ir.Var)\n    )",
            "        and len(data.args) == 1\n    ) or isinstance(data.args[0], ir.Var)",
        ),
        _BUILD,
    ],
    # buffer_data(<the buffer being declared>): not in var_idmap_ yet
    "blind7-wva-own-data": [(_VARIABLE, "    return False\n    return (\n"), _BUILD],
    # CodeGenC's generic path raises first, as released
    "blind7-wva-check-after": [
        ("register_global_func(name, _fixed_build(original)", "register_global_func(name, original")
    ],
}

_REFERENCE_NAMES = fix.names_storage
_NAMED = {}  # the kernel's names of the wrong fix's lookup: "params", "allocs"


def _params_only(data):
    if not _REFERENCE_NAMES(data):
        return False
    var = data if isinstance(data, ir.Var) else data.args[0]
    return any(var.same_as(p) for p in _NAMED.get("params", ()))


def _no_view_of_view(data):
    if not _REFERENCE_NAMES(data):
        return False
    var = data if isinstance(data, ir.Var) else data.args[0]
    return any(var.same_as(p) for p in _NAMED.get("params", ()) + _NAMED.get("allocs", ()))


def _collect(mod):
    params, allocs = [], []
    for _, func in mod.functions.items():
        if not isinstance(func, ir.PrimFunc):
            continue
        params += list(func.params)

        def visit(node):
            buf = getattr(node, "buffer", None)
            kind = type(node).__name__
            if kind == "AllocBuffer" and buf is not None:
                allocs.append(buf)  # the buffer variable buffer_data names
            elif (  # a parameter's own declaration names the parameter's array
                kind == "DeclBuffer"
                and isinstance(node.data, ir.Var)
                and any(node.data.same_as(p) for p in func.params)
            ):
                params.append(buf)
            return WalkResult.ADVANCE

        walk(func.body, visit, order="pre")
    _NAMED.update(params=params, allocs=allocs)


def _build_with(names):
    def make(original):
        def build(mod, target):
            _collect(mod)
            saved = fix.names_storage
            fix.names_storage = names
            try:
                refused = fix.first_refusal(mod)
                if refused is not None:  # the wrong check refuses what it meets first
                    raise ValueError(fix.refusal_message(*refused))
                # accepted: CodeGenC prints the view as the released generator does
                return original(mod, target)
            finally:
                fix.names_storage = saved

        return build

    return make


PATCHES = {
    "blind7-wva-params-only": {"_fixed_build": _build_with(_params_only)},
    "blind7-wva-no-view-of-view": {"_fixed_build": _build_with(_no_view_of_view)},
}
