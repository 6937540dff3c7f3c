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
"""Round-7 blind wrong fixes of AllocateWorkspace (patches/0001), each the reference fix's own
text (bugs/allocate_workspace/reference_fix.py) with one step changed (harness/wrong_fixes.py:
EDITS)."""

WRONG_FIXES = {
    "blind7-size-first": "W is the first WorkspaceSize found, not the largest",
    "blind7-size-module-level": "W is taken over module-level functions only, local ones skipped",
    "blind7-one-sweep": "the takers are grown by one sweep over the functions, not a fixpoint",
    "blind7-nested-sized-ignored": (
        "an external function with a sized local function is not made a taker"
    ),
    "blind7-size-zero-runs": "the pass runs when every WorkspaceSize is 0 (only presence checked)",
    "blind7-symbol-kept": "a re-added public taker keeps its old global_symbol",
    "blind7-alloc-in-dataflow": (
        "the entry allocation goes into the first block even when it is a dataflow block"
    ),
    "blind7-var-callee-missed": (
        "a call through a variable bound to a taker does not pass the workspace"
    ),
}

EDITS = {
    "blind7-size-first": [("return max(sizes)", "return sizes[0]")],
    "blind7-size-module-level": [
        (
            "relax.analysis.post_order_visit(func, visit)\n    return sizes",
            "visit(func)  # the local functions are not visited\n    return sizes",
        )
    ],
    "blind7-one-sweep": [("                grew = True\n", "                grew = False\n")],
    "blind7-nested-sized-ignored": [
        ("(bool(names & taking) or nested_sized)", "bool(names & taking)")
    ],
    "blind7-size-zero-runs": [("return any(sizes)", "return bool(sizes)")],
    "blind7-symbol-kept": [('return func.with_attr("global_symbol", new_name)', "return func")],
    "blind7-alloc-in-dataflow": [
        (
            "    if blocks and not isinstance(blocks[0], relax.DataflowBlock):\n"
            "        blocks[0] = relax.BindingBlock([*bindings, *blocks[0].bindings])",
            "    if blocks:\n        blocks[0] = type(blocks[0])([*bindings, *blocks[0].bindings])",
        )
    ],
    "blind7-var-callee-missed": [
        (
            "while isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
            "while False:  # a variable bound to the callee is not followed",
        )
    ],
}
