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
"""Blind round 6 wrong fixes of the AllocateWorkspace reference fix, each the reference fix's own
text (bugs/allocate_workspace/reference_fix.py) with one step changed (harness/wrong_fixes.py:
EDITS)."""

from bugs.allocate_workspace.wrong_fixes import EDITS as FIRST
from bugs.allocate_workspace.wrong_fixes_round4 import EDITS as ROUND4

WRONG_FIXES = {
    "blind6-first-size": "W is the first WorkspaceSize found, not the largest",
    "blind6-one-sweep": "the takers' closure is one sweep over the functions, not a fixpoint",
    "blind6-alloc-in-dataflow": "the entry allocation goes into the first block even if dataflow",
    "blind6-symbol-kept": "a re-added taker keeps its old global_symbol (not the new name)",
    "blind6-var-callee": "a call through a variable bound to a taker gets no workspace",
    "blind6-zero-size-runs": "the pass runs when there is a WorkspaceSize, even if all are 0",
    "blind6-equal-merged": "structurally equal takers are re-added under one shared GlobalVar",
}

# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind6-first-size": [("return max(sizes)", "return sizes[0]")],
    "blind6-one-sweep": FIRST["blind-one-sweep"],
    "blind6-alloc-in-dataflow": FIRST["blind-alloc-in-first-dataflow"],
    "blind6-symbol-kept": ROUND4["blind4-global-symbol-kept"],
    "blind6-var-callee": [
        (
            "while isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
            "while False:  # a variable bound to the callee is not followed",
        )
    ],
    "blind6-zero-size-runs": FIRST["zero-size-allocated"],
    "blind6-equal-merged": FIRST["equal-functions-merged"],
}
