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
"""Blind round 4: wrong fixes of SplitHostDevice writing its input (patches/0006).

Each replaces the reference fix's ``run`` by a model of the C++ pass_func with one mistake.
The original pass run on a copy of the input leaves in that copy what its two writes
(``Update(updates)``, ``Update(device_mod)``) put there: the functions of the input it
rewrote, and the kernels it added."""

from bugs.split_host_device_inplace import reference_fix as fix
from harness import input_copy_mistakes as _mistakes
from harness.tvm_line import ir
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind4-copy-after-first-write": "mod->Update(updates) still writes the caller's module; "
    "only the second write, of the kernels, goes through mod.CopyOnWrite(): the input keeps "
    "its host functions rewritten to launch kernels it does not have",
    "blind4-guard-skips-launch-lowering": "the guard 'nothing to write' also skips "
    "LowerDeviceKernelLaunches (ConvertSSA still runs): a module already split, its host "
    "calling its kernel, keeps the call unlowered and the kernel without calling_conv",
    "blind4-guard-returns-early": "with nothing to write the pass returns the module as it came, "
    "skipping ConvertSSA and LowerDeviceKernelLaunches: a host-only function that rebinds a "
    "variable is not put in SSA form",
    "blind4-copy-drops-attrs": "the copy is a new IRModule of the input's functions (and global "
    "infos): the output loses the module's attributes",
    "blind4-copy-drops-global-infos": "the copy is a new IRModule of the input's functions and "
    "attributes: the output loses the module's global infos",
    "blind4-copy-only-under-immutable-option": "copies the module only when the "
    "testing.immutable_module option is set: an ordinary run still writes the caller's module",
}


def _written(inner, mod):
    """The pass on a copy of ``mod``: (its result, the functions its writes put in the copy:
    {GlobalVar: function} of the input's functions rewritten and of the kernels added)."""
    copy = mod.clone()
    result = inner(copy)
    before = dict(mod.functions.items())
    written = {
        gvar: func
        for gvar, func in copy.functions.items()
        if gvar not in before or not func.same_as(before[gvar])
    }
    return result, written


def _copy_after_first_write(inner, mod):
    result, written = _written(inner, mod)
    for gvar, func in written.items():
        if gvar in dict(mod.functions.items()):
            mod.update_func(gvar, func)  # mod->Update(updates): the caller's module
    return result


def _guard_skips_launch_lowering(inner, mod):
    result, written = _written(inner, mod)
    if written:
        return result
    return ir.transform.ConvertSSA()(mod)


def _guard_returns_early(inner, mod):
    result, written = _written(inner, mod)
    return result if written else mod


_PATCHES = {
    "blind4-copy-after-first-write": _copy_after_first_write,
    "blind4-guard-skips-launch-lowering": _guard_skips_launch_lowering,
    "blind4-guard-returns-early": _guard_returns_early,
    "blind4-copy-drops-attrs": _mistakes.rebuilt_copy(
        attrs=False, global_infos=True, option_lifted=False
    ),
    "blind4-copy-drops-global-infos": _mistakes.rebuilt_copy(
        attrs=True, global_infos=False, option_lifted=False
    ),
    "blind4-copy-only-under-immutable-option": _mistakes.only_under_immutable_option,
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, {"run": _PATCHES[name]})
