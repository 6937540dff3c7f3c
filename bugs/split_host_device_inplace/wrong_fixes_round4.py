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
rewrote, and the kernels it added.

Each is the reference fix's text with ``run`` changed (harness/wrong_fixes.py: EDITS;
``run_is`` and the mistakes it names in wrong_fixes.py).
"""

from bugs.split_host_device_inplace.wrong_fixes import run_is

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


EDITS = {
    "blind4-copy-after-first-write": run_is("_wrong.copy_after_first_write"),
    "blind4-guard-skips-launch-lowering": run_is("_wrong.guard_skips_launch_lowering"),
    "blind4-guard-returns-early": run_is("_wrong.guard_returns_early"),
    "blind4-copy-drops-attrs": run_is(
        "_mistakes.rebuilt_copy(attrs=False, global_infos=True, option_lifted=False)"
    ),
    "blind4-copy-drops-global-infos": run_is(
        "_mistakes.rebuilt_copy(attrs=True, global_infos=False, option_lifted=False)"
    ),
    "blind4-copy-only-under-immutable-option": run_is("_mistakes.only_under_immutable_option"),
}
