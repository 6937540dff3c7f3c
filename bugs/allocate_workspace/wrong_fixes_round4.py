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
"""Blind round 4: wrong fixes of AllocateWorkspace (patches/0001), each the reference fix's own
text (bugs/allocate_workspace/reference_fix.py) with one step done wrong (harness/wrong_fixes.py:
EDITS)."""

from bugs.allocate_workspace.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind4-size-module-level-only": "W is the largest WorkspaceSize of the module-level "
    "functions only: a local Composite function asking for more gets a workspace too small",
    "blind4-takers-one-sweep": "the functions taking the workspace are found in one sweep over "
    "the module, not a fixpoint: a Codegen function met before the Composite function it calls "
    "(itself calling the sized one) is not found",
    "blind4-nested-sized-ignored": "an external function takes the workspace only when it "
    "references a module-level taker: a Codegen function whose only sized function is local "
    "does not take it, and the pass refuses the valid module",
    "blind4-alloc-in-first-dataflow-block": "the entry allocation is put at the start of the "
    "function's first dataflow block (as before the fix): a call in an ordinary block before it "
    "uses workspace_main before it is bound",
    "blind4-callee-through-var-missed": "a call passes the workspace only when its callee is a "
    "renamed GlobalVar or a local function itself, not a variable bound to one: "
    "f = cls.outer; f(x) calls outer1 without its workspace",
    "blind4-equal-takers-merged": "each taker is re-added with builder.add_func alone: two "
    "structurally equal takers get one GlobalVar, the second renamed function is lost",
    "blind4-global-symbol-kept": "a renamed taker keeps its global_symbol: a public Codegen "
    "function re-added as outer1 still says global_symbol 'outer'",
}

# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind4-size-module-level-only": FIRST["module-level-sizes-only"],
    "blind4-takers-one-sweep": FIRST["blind-one-sweep"],
    "blind4-nested-sized-ignored": FIRST["local-sized-missed"],
    "blind4-alloc-in-first-dataflow-block": [
        (
            "    if blocks and not isinstance(blocks[0], relax.DataflowBlock):\n"
            "        blocks[0] = relax.BindingBlock([*bindings, *blocks[0].bindings])",
            "    k = next((k for k, b in enumerate(blocks) if isinstance(b, relax.DataflowBlock)),"
            " None)\n"
            "    if k is not None:  # the first dataflow block\n"
            "        blocks[k] = relax.DataflowBlock([*bindings, *blocks[k].bindings])",
        )
    ],
    "blind4-callee-through-var-missed": [
        (
            "while isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
            "if isinstance(op, relax.Var) and isinstance(self.lookup_binding(op), relax.Function):",
        )
    ],
    "blind4-equal-takers-merged": FIRST["equal-functions-merged"],
    "blind4-global-symbol-kept": [
        ('return func.with_attr("global_symbol", new_name)', "return func")
    ],
}
