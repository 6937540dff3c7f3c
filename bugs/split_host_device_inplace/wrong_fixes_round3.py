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
"""Third blind round: wrong fixes of split_host_device_inplace (SplitHostDevice's writes).

SplitHostDevice writes its input; the C++ fix of patches/0006:
``if (!updates->functions.empty() || !device_mod->functions.empty()) {
IRModuleNode* module = mod.CopyOnWrite(); module->Update(updates); module->Update(device_mod);
} mod = ConvertSSA()(mod); return LowerDeviceKernelLaunches(mod);``. The reference fix models it
by running the pass on ``mod.clone()`` (``reference_fix.run``). Each variant below replaces
``run`` with one step of that done wrong; ``inner`` is the original (in-place) pass, which
splits, then runs ConvertSSA and LowerDeviceKernelLaunches.

Each is the reference fix's text with ``run`` changed (harness/wrong_fixes.py: EDITS;
``run_is`` and the mistakes it names in wrong_fixes.py).
"""

from bugs.split_host_device_inplace.wrong_fixes import run_is

WRONG_FIXES = {
    "blind3-host-update-in-place": "CopyOnWrite before the second write only "
    "(mod->Update(updates); mod.CopyOnWrite()->Update(device_mod)): the caller's module gets "
    "the rewritten host functions, which launch kernels it does not hold",
    "blind3-early-return-unlowered": "returns mod as it came when nothing was split, before "
    "ConvertSSA and LowerDeviceKernelLaunches: a module already split by hand keeps its host "
    "function's plain call of the kernel (no kernel launch, no calling_conv)",
    "blind3-convert-ssa-in-guard": "moves ConvertSSA into the guarded write block: a module "
    "with nothing to split is no longer made SSA (a loop variable bound twice stays so)",
    "blind3-copy-drops-attrs": "the copy is rebuilt as IRModule(mod->functions) instead of "
    "CopyOnWrite: the module's attributes (and global infos) are dropped from the output",
    "blind3-split-result-discarded": "writes the split into a copy held in another variable "
    "but goes on with ConvertSSA/LowerDeviceKernelLaunches of the unsplit input: nothing is "
    "split, the device code stays in the host function",
    "blind3-copy-only-when-immutable": "copies only under the testing.immutable_module option: "
    "a plain call (a test's Before, a module compiled twice) still gets the split written in",
}


# the wrong fixes no program of the apache/tvm-tirx line tells apart from the reference fix
NOT_ON_TVM_TIRX = {
    "blind3-convert-ssa-in-guard": "on tvm-tirx the pass's output is in SSA form with or "
    "without the reference fix's ConvertSSA step: a loop bound twice in a host-only function "
    "comes out renamed either way",
}


EDITS = {
    "blind3-host-update-in-place": run_is("_wrong.host_update_when_split"),
    "blind3-early-return-unlowered": run_is("_wrong.early_return"),
    "blind3-convert-ssa-in-guard": run_is("_wrong.convert_ssa_in_guard"),
    "blind3-copy-drops-attrs": run_is(
        "_mistakes.rebuilt_copy(attrs=False, global_infos=False, option_lifted=True)"
    ),
    "blind3-split-result-discarded": run_is("_wrong.split_result_discarded"),
    "blind3-copy-only-when-immutable": run_is("_mistakes.only_under_immutable_option"),
}
