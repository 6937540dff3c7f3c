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
"""Blind round 5 wrong fixes of the AllocateWorkspace report (patches/0001), each the reference
fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

from bugs.allocate_workspace.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind5-local-sizes-ignored": "W and the 'any size' check read WorkspaceSize of "
    "module-level functions only, not of local functions",
    "blind5-one-sweep": "the takers are grown by one sweep over the functions, not to a "
    "fixpoint: a caller visited before its callee is found to take the workspace is missed",
    "blind5-alias-one-hop": "a callee bound to a variable is resolved one binding deep: "
    "`f = cls.a; g = f; g(x)` gets no workspace argument",
    "blind5-alloc-in-dataflow": "the entry allocation is prepended to the first block whatever "
    "its kind: it lands inside the dataflow block",
    "blind5-equal-callees-merged": "structurally equal takers are not kept apart: add_func's "
    "deduplicated GlobalVar is used for both",
    "blind5-global-symbol-stale": "a renamed function keeps its old global_symbol",
    "blind5-external-scope-reset": "a local function nested in an external function that is "
    "not itself external resets the 'inside external code' context: it allocates the "
    "workspace in code handed to the backend instead of raising",
}

# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind5-local-sizes-ignored": [
        (
            "            relax.analysis.post_order_visit(func, visit)\n    return sizes",
            "            visit(func)  # the local functions are not visited\n    return sizes",
        )
    ],
    "blind5-one-sweep": FIRST["blind-one-sweep"],
    "blind5-alias-one-hop": [
        (
            "        while isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
            "        if isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
        )
    ],
    "blind5-alloc-in-dataflow": FIRST["blind-alloc-in-first-dataflow"],
    "blind5-equal-callees-merged": FIRST["equal-functions-merged"],
    "blind5-global-symbol-stale": [
        (
            '        return func.with_attr("global_symbol", new_name)\n    return func',
            "        return func\n    return func",
        )
    ],
    "blind5-external-scope-reset": FIRST["blind-local-outside-external"],
}
