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
"""Blind round 5: wrong fixes of LowerIket's copy-on-write and stripping loop (patch 0010).

Each replaces one step of the reference fix (``run``: the branch and how each branch writes;
``enabled``/``child_env``: the branch decision, IketEnabled) by a variant that models one
mistake in the C++ ``LowerIketImpl``.
"""

from bugs.lower_iket_inplace.wrong_fixes import EDITS as FIRST
from bugs.lower_iket_inplace.wrong_fixes_round2 import EDITS as ROUND2
from bugs.lower_iket_inplace.wrong_fixes_round3 import EDITS as ROUND3
from bugs.lower_iket_inplace.wrong_fixes_round3 import NEW_MODULE, written_back

WRONG_FIXES = {
    "blind5-cow-no-snapshot": "writes through module.CopyOnWrite() but still loops over "
    "module->functions: where the pass holds the module alone (its map unshared, a hash "
    "table) the loop ends after the first function it strips",
    "blind5-snapshot-no-cow": "loops over a handle of the map but still writes "
    "module->Update(...) in the stripping branch: the caller's module loses its marks",
    "blind5-instrument-in-place": "the stripping branch is fixed, the instrumenting branch "
    "still writes module->Update(kernel.global_var, ...): the caller's kernels get "
    "instrumented",
    "blind5-enabled-exact-one": "the branch decision reads tirx.iket.enabled as == 1, not "
    "nonzero: with enabled=2 each kernel is instrumented on its own and the events are "
    "numbered per kernel, not across the module",
    "blind5-child-env-ignored": "the branch decision ignores a run-iket child's environment: "
    "there each kernel is instrumented on its own, so the module-wide checks (unique kernel "
    "symbols, one kind per declaration) are skipped",
    "blind5-new-module-of-stripped": "the stripping branch writes each stripped function into "
    "a new module instead of a copy of the input: the functions it leaves alone (unmarked "
    "host functions, non-PrimFuncs) are dropped",
}


EDITS = {
    "blind5-cow-no-snapshot": ROUND3["blind3-cow-without-map-handle"],
    "blind5-snapshot-no-cow": written_back("result"),
    "blind5-instrument-in-place": FIRST["strip-branch-only"],
    "blind5-enabled-exact-one": ROUND2["blind2-attr-equals-one"],
    "blind5-child-env-ignored": [
        ("\ndef child_env():\n", "\ndef child_env():\n    return False\n")
    ],
    "blind5-new-module-of-stripped": [NEW_MODULE],
}
