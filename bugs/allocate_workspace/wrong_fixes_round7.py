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

from bugs.allocate_workspace.wrong_fixes import EDITS as FIRST
from bugs.allocate_workspace.wrong_fixes_round4 import EDITS as ROUND4
from bugs.allocate_workspace.wrong_fixes_round6 import EDITS as ROUND6

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

# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind7-size-first": ROUND6["blind6-first-size"],
    "blind7-size-module-level": FIRST["module-level-sizes-only"],
    "blind7-one-sweep": FIRST["blind-one-sweep"],
    "blind7-nested-sized-ignored": FIRST["local-sized-missed"],
    "blind7-size-zero-runs": FIRST["zero-size-allocated"],
    "blind7-symbol-kept": ROUND4["blind4-global-symbol-kept"],
    "blind7-alloc-in-dataflow": FIRST["blind-alloc-in-first-dataflow"],
    "blind7-var-callee-missed": ROUND6["blind6-var-callee"],
}
