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
"""Blind round 6: wrong fixes of split_host_device_inplace (patch 0006, SplitHostDevice).

Each is the reference fix's text with ``run`` changed (harness/wrong_fixes.py: EDITS;
``run_is`` and the mistakes it names in wrong_fixes.py).
"""

from bugs.split_host_device_inplace.wrong_fixes import run_is

WRONG_FIXES = {
    "blind6-shd-immutable-kept": (
        "under testing.immutable_module the copy is passed to the pass in the caller's context: "
        "the pass's own in-place writes to the copy trip the check, every compile is refused"
    ),
    "blind6-shd-inner-ctx-no-instruments": (
        "the context rebuilt without testing.immutable_module drops the caller's pass "
        "instruments: the passes SplitHostDevice runs inside (ConvertSSA, ...) go unseen"
    ),
    "blind6-shd-copy-drops-global-infos": (
        "the copy is built as IRModule(functions, attrs) instead of a clone: the module's "
        "global infos are lost from the result"
    ),
    "blind6-shd-first-write-inplace": (
        "only the second Update (device_mod) goes through CopyOnWrite: the rewritten host "
        "functions are still written into the caller's module"
    ),
    "blind6-shd-no-ssa-when-nothing-to-split": (
        "the write guard returns early: a module without a device region is returned as it "
        "came, without ConvertSSA"
    ),
    "blind6-shd-single-function-inplace": (
        "the copy is skipped for a module of one function (taken as one the pass owns alone): "
        "the caller's one-function module is still written"
    ),
}


UNSEEN = {
    "blind6-shd-inner-ctx-no-instruments": (
        "a step of the Python stand-in only: it runs the released pass on a copy inside a pass "
        "context of its own, which patch 0006 does not (the C++ writes through CopyOnWrite); "
        "proof: "
        "test_pipeline_runs_the_pass_at_every_opt_level_in_view_of_its_instruments kills it"
    ),
}


EDITS = {
    "blind6-shd-immutable-kept": run_is("_mistakes.option_kept_for_inner"),
    "blind6-shd-inner-ctx-no-instruments": run_is("_wrong.no_instruments"),
    "blind6-shd-copy-drops-global-infos": run_is(
        "_mistakes.rebuilt_copy(attrs=True, global_infos=False, option_lifted=False)"
    ),
    "blind6-shd-first-write-inplace": run_is("_wrong.host_functions_written_back"),
    "blind6-shd-no-ssa-when-nothing-to-split": run_is("_wrong.no_ssa_without_device_region"),
    "blind6-shd-single-function-inplace": run_is("_mistakes.several_functions_only"),
}
