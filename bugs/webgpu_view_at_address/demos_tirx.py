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
"""Programs on which WebGPU's reference fix for a kernel's view at an address and each blind wrong
fix differ, on apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python
scripts/blind_demos.py --bug webgpu_view_at_address): demos.py's entries that this line can tell
apart, their kernels built here (each a launch region, each view a ``T.decl_tensor``) and
compiled for webgpu ("compiles" or the error's kind and line); round 6's kernels here have one
thread each, and round 7's own-data demo reads a view of a view. The scope and error-kind wrong
fixes have no demo here (those of rounds 4 and 5 that
wrong_fixes.toml marks not_on_tvm_tirx)."""

from bugs.webgpu_view_at_address.demos import AB8, at, compiled, program
from bugs.webgpu_view_at_address.demos import DEMOS as ON_APACHE
from harness.blind_demo import Demo, without

DEMOS = {
    **without(
        ON_APACHE,
        "blind4-scope-ignored",
        "blind4-any-refusal",
        "blind5-typeerror-only",
        "blind5-shared-scope-only",
        "blind5-any-error-converted",
        "blind6-wva-params-only-named",
        "blind6-wva-let-resolved",
        "blind7-wva-params-only",
        "blind7-wva-no-view-of-view",
        "blind7-wva-check-after",
    ),
    # round 6: kernels of one thread, the first at 0, the second at 1
    "blind6-wva-first-kernel-only": Demo(
        program(AB8, ["B[0] = A[0]"], [at("V0", "A[1]"), "B[1 + 4] = V0[0]"], threads=1),
        compiled,
    ),
    "blind6-wva-any-call-names": Demo(
        program(AB8, [at("V0", "A[0]"), "V0[0] = B[0]"], threads=1), compiled
    ),
    "blind6-wva-scope-check-ignored": Demo(
        program(AB8, [at("V0", "A[0 + 2]"), "B[0] = V0[0]"], threads=1), compiled
    ),
    "blind6-wva-last-view": Demo(
        program(
            AB8,
            [at("V0", "A[0]"), at("V1", "A[0 + 4]"), "B[0] = V0[0] + V1[0]"],
            threads=1,
        ),
        compiled,
    ),
    # round 7: a view over another view of A (apache/tvm's no-view-of-view demo)
    "blind7-wva-own-data": ON_APACHE["blind7-wva-no-view-of-view"],
}
