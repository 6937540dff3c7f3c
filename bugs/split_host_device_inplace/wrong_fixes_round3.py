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
splits, then runs ConvertSSA and LowerDeviceKernelLaunches."""

from bugs.split_host_device_inplace import reference_fix as fix
from harness import input_copy
from harness import input_copy_mistakes as _mistakes
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

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


def _changed(mod, out):
    """{gvar: function} of ``out`` that replace a function of ``mod`` (the updates)."""
    names = {gv.name_hint for gv in mod.get_global_vars()}
    return {
        gv: func
        for gv, func in out.functions_items()
        if gv.name_hint in names and not func.same_as(mod[gv.name_hint])
    }


def _split_something(mod, out):
    """Whether the split stage wrote anything: a kernel was outlined (the updates and the
    device module are written together)."""
    return len(out.functions_items()) > len(mod.functions_items())


def _host_update_in_place(inner, mod):
    out = input_copy.run(inner, mod)
    if _split_something(mod, out):  # the guard held: the first write goes to the input
        for gv, func in _changed(mod, out).items():
            mod.update_func(mod.get_global_var(gv.name_hint), func)
    return out


def _early_return_unlowered(inner, mod):
    out = input_copy.run(inner, mod)
    return out if _split_something(mod, out) else mod


def _convert_ssa_in_guard(inner, mod):
    out = input_copy.run(inner, mod)
    if _split_something(mod, out):
        return out
    # nothing split: ConvertSSA is skipped, so a function that was not in SSA form comes back
    # as it came (LowerDeviceKernelLaunches has nothing to launch in a host-only function)
    verify_ssa = getattr(ir.analysis, "verify_ssa", None)  # apache/tvm only
    for gv, _func in out.functions_items():
        if verify_ssa is not None and not verify_ssa(mod[gv.name_hint]):
            out.update_func(gv, mod[gv.name_hint])
    return out


def _split_result_discarded(inner, mod):
    # ConvertSSA of the unsplit input: the launch lowering finds no call to lower there
    return input_copy.run(lambda clone: ir.transform.ConvertSSA()(clone), mod)


_RUNS = {
    "blind3-host-update-in-place": _host_update_in_place,
    "blind3-early-return-unlowered": _early_return_unlowered,
    "blind3-convert-ssa-in-guard": _convert_ssa_in_guard,
    "blind3-copy-drops-attrs": _mistakes.rebuilt_copy(
        attrs=False, global_infos=False, option_lifted=True
    ),
    "blind3-split-result-discarded": _split_result_discarded,
    "blind3-copy-only-when-immutable": _mistakes.only_under_immutable_option,
}


# the wrong fixes no program of the apache/tvm-tirx line tells apart from the reference fix
NOT_ON_TVM_TIRX = {
    "blind3-convert-ssa-in-guard": "on tvm-tirx the pass's output is in SSA form with or "
    "without the reference fix's ConvertSSA step: a loop bound twice in a host-only function "
    "comes out renamed either way",
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, {"run": _RUNS[name]})
