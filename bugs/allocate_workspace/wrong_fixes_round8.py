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
"""Blind round 8 (blind8d): wrong fixes of AllocateWorkspace (patches/0001), each the reference
fix's text with one step of the C++ patch changed. Demos: demos_round8.py."""

WRONG_FIXES = {
    "blind8-local-sizes-ignored": "W is the largest WorkspaceSize of the module-level functions "
    "only; a larger size on a local function is missed",
    "blind8-zero-size-runs": "the pass runs when any WorkspaceSize is present, even when all are "
    "0 (checks presence, not a size above 0)",
    "blind8-one-sweep": "the takers are found in one sweep over the module, not a fixpoint: an "
    "external caller seen before its callee is found to take the workspace is missed",
    "blind8-nested-sized-ignored": "an external function takes the workspace only for a "
    "referenced module-level taker, not for a local function with WorkspaceSize nested in it",
    "blind8-codegen-only-external": "IsExternal checks Codegen only, not Composite: a Composite "
    "function in the middle of a chain does not take the workspace",
    "blind8-callee-one-binding": "the callee variable is followed through one binding, not a "
    "chain of them (g = f; f = cls.inner)",
    "blind8-workspace-first-arg": "the workspace argument is prepended to the call's arguments "
    "instead of appended (the parameter is the last)",
    "blind8-private-made-public": "the renamed function always gets a global_symbol, so a "
    "private renamed function becomes public",
    "blind8-symbol-keeps-old-name": "the renamed function keeps its old global_symbol instead of "
    "taking the new GlobalVar's name",
    "blind8-equal-merged": "two structurally equal takers are not kept apart: AddFunction's "
    "returned GlobalVar is used for both",
    "blind8-alloc-per-call": "the entry function allocates a fresh workspace for every call that "
    "needs it instead of once",
    "blind8-nested-not-external": "a local function nested in an external function is not "
    "treated as part of it: it allocates the workspace instead of raising the ValueError",
}

EDITS = {
    "blind8-local-sizes-ignored": [
        (
            "        if isinstance(func, relax.Function):\n"
            "            relax.analysis.post_order_visit(func, visit)",
            "        if isinstance(func, relax.Function):\n            visit(func)",
        )
    ],
    "blind8-zero-size-runs": [("    return any(sizes)", "    return bool(sizes)")],
    "blind8-one-sweep": [
        (
            "                taking.add(name)\n                grew = True",
            "                taking.add(name)",
        )
    ],
    "blind8-nested-sized-ignored": [
        (
            "return _is_external(func) and (bool(names & taking) or nested_sized)",
            "return _is_external(func) and bool(names & taking)",
        )
    ],
    "blind8-codegen-only-external": [
        ('_EXTERNAL = ("Codegen", "Composite")', '_EXTERNAL = ("Codegen",)')
    ],
    "blind8-callee-one-binding": [
        (
            "        while isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
            "        if isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
        )
    ],
    "blind8-workspace-first-arg": [
        (
            "        args.append(self._workspace(_name_of(op.op)))",
            "        args.insert(0, self._workspace(_name_of(op.op)))",
        )
    ],
    "blind8-private-made-public": [
        (
            '    if _attr(func, "global_symbol") is not None:\n'
            '        return func.with_attr("global_symbol", new_name)\n    return func',
            '    return func.with_attr("global_symbol", new_name)',
        )
    ],
    "blind8-symbol-keeps-old-name": [
        (
            "            new_func = _renamed(new_func, gvar.name_hint)",
            "            new_func = _renamed(new_func, name)",
        )
    ],
    "blind8-equal-merged": [
        (
            "    if not any(gvar.same_as(other) for other in added):\n        return gvar",
            "    return gvar",
        )
    ],
    "blind8-alloc-per-call": [
        (
            "        if self.workspace is None:\n            if self.external is not None:",
            "        if self.workspace is None or self.allocations:\n"
            "            if self.external is not None:",
        )
    ],
    "blind8-nested-not-external": [
        (
            "        if _is_external(op):\n            self.external = self.function",
            "        self.external = self.function if _is_external(op) else None",
        )
    ],
}
