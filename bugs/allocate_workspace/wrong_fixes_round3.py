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
"""Third blind round: wrong fixes of allocate_workspace (AllocateWorkspace, apache/tvm#20479).

Each variant makes one mistake in one step of the reference fix of patches/0001: the reference
fix's own text (bugs/allocate_workspace/reference_fix.py) with that step edited
(harness/wrong_fixes.py: EDITS)."""

from bugs.allocate_workspace.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind3-takers-one-sweep": "finds the functions taking the workspace in one sweep over the "
    "module instead of a worklist/fixpoint: an external caller listed before the external "
    "function that makes it a taker (a_outer -> b_mid -> c_inner) is missed, and the valid "
    "module is refused",
    "blind3-sizes-module-level-only": "W is the largest WorkspaceSize of the module-level "
    "functions only: a larger size asked by a local Composite function is not met (the "
    "workspace is too small)",
    "blind3-nested-sized-ignored": "an external function takes the workspace only for the "
    "module-level takers it references, not for a local function with WorkspaceSize: a "
    "Codegen function whose sized Composite function is local is refused",
    "blind3-callee-one-alias-level": "follows one variable binding to the callee (an if where "
    "a while is needed): a call through g = f = cls.outer passes no workspace",
    "blind3-private-renamed-public": "the renamed function always gets global_symbol = its "
    "new name: a private callee becomes public",
    "blind3-external-caller-allocates": "drops the check that code inside an external function "
    "cannot allocate: a local function without Composite inside a Codegen function allocates "
    "the workspace there instead of raising ValueError",
    "blind3-zero-size-workspace": "decides there is a workspace to provide when any function "
    "has WorkspaceSize, also 0: a module whose sizes are all 0 is rewritten (renamed functions, "
    "a 0-byte workspace) instead of left unchanged",
    "blind3-alloc-in-dataflow-block": "puts the entry allocation into the first block whatever "
    "its kind: in a dataflow block, not in an ordinary block in front of it",
}

# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind3-takers-one-sweep": FIRST["blind-one-sweep"],
    "blind3-sizes-module-level-only": FIRST["module-level-sizes-only"],
    "blind3-nested-sized-ignored": FIRST["local-sized-missed"],
    "blind3-callee-one-alias-level": FIRST["one-binding-step"],
    "blind3-private-renamed-public": FIRST["private-gets-global-symbol"],
    "blind3-external-caller-allocates": [
        ("if self.external is not None:", "if False:  # code inside external code allocates too")
    ],
    "blind3-zero-size-workspace": FIRST["zero-size-allocated"],
    "blind3-alloc-in-dataflow-block": FIRST["blind-alloc-in-first-dataflow"],
}
