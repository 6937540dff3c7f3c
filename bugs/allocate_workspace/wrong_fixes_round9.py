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
"""Blind round 9 (blind9d): wrong fixes of allocate_workspace, each the reference fix with one
step of patches/0001 changed (demos: demos_round9.py)."""

WRONG_FIXES = {
    "blind9-single-sweep": "external callers of a taker found in one sweep, no fixpoint",
    "blind9-first-size": "W is the first WorkspaceSize found, not the largest",
    "blind9-module-level-sizes": "W counts module-level functions only, not local ones",
    "blind9-nested-sized-ignored": "Codegen with a sized local function takes no workspace",
    "blind9-symbol-kept": "a renamed public function keeps its old global_symbol",
    "blind9-private-made-public": "a renamed private function is given a global_symbol",
    "blind9-equal-merged": "structurally equal takers share one renamed GlobalVar",
    "blind9-alloc-in-dataflow": "the entry allocation joins the first block whatever its kind",
}

EDITS = {
    "blind9-single-sweep": [
        ("    while grew:\n        grew = False", "    if grew:\n        grew = False")
    ],
    "blind9-first-size": [("    return max(sizes)", "    return sizes[0]")],
    "blind9-module-level-sizes": [
        (
            "            relax.analysis.post_order_visit(func, visit)\n    return sizes",
            "            visit(func)\n    return sizes",
        )
    ],
    "blind9-nested-sized-ignored": [
        ("(bool(names & taking) or nested_sized)", "bool(names & taking)")
    ],
    "blind9-symbol-kept": [
        (
            'return func.with_attr("global_symbol", new_name)',
            'return func.with_attr("global_symbol", _attr(func, "global_symbol"))',
        )
    ],
    "blind9-private-made-public": [
        (
            '    if _attr(func, "global_symbol") is not None:\n        return func.with_attr(',
            "    if True:\n        return func.with_attr(",
        )
    ],
    "blind9-equal-merged": [
        ("    if not any(gvar.same_as(other) for other in added):", "    if True:")
    ],
    "blind9-alloc-in-dataflow": [
        (
            "    if blocks and not isinstance(blocks[0], relax.DataflowBlock):\n"
            "        blocks[0] = relax.BindingBlock([*bindings, *blocks[0].bindings])",
            "    if blocks:\n        blocks[0] = type(blocks[0])([*bindings, *blocks[0].bindings])",
        )
    ],
}
