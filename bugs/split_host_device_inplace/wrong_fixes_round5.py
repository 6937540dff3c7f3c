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
"""Blind round 5: wrong fixes of SplitHostDevice's copy-on-write (patch 0006).

Each replaces the reference fix's ``run(inner, mod)`` (the pass on a copy of its input) by a
variant that models one mistake in the C++ ``pass_func``.

Each is the reference fix's text with ``run`` changed (harness/wrong_fixes.py: EDITS;
``run_is`` and the mistakes it names in wrong_fixes.py).
"""

from bugs.split_host_device_inplace.wrong_fixes import run_is

WRONG_FIXES = {
    "blind5-only-under-immutable": "copies the module only under testing.immutable_module "
    "(CopyOnWrite guarded by the option): a plain SplitHostDevice()(Before) still writes Before",
    "blind5-host-update-in-place": "the first write stays mod->Update(updates) and only "
    "Update(device_mod) goes through CopyOnWrite: the caller's host function is rewritten "
    "to launch a kernel its module does not hold",
    "blind5-early-return": "with nothing to write the pass returns mod at once, skipping "
    "ConvertSSA and LowerDeviceKernelLaunches (the guard wraps the whole tail)",
    "blind5-lower-inside-guard": "with nothing to write LowerDeviceKernelLaunches is skipped "
    "(the guard wraps it), ConvertSSA still runs: calls into already-split kernels stay "
    "unlowered",
    "blind5-copy-drops-attrs": "the copy is IRModule(mod->functions): the module's attributes "
    "and global infos are lost in the output",
    "blind5-new-module-of-updates": "the result is a new module of updates and device_mod "
    "only: the functions the pass left alone (host-only PrimFuncs) are dropped",
}


EDITS = {
    "blind5-only-under-immutable": run_is("_mistakes.only_under_immutable_option"),
    "blind5-host-update-in-place": run_is("_wrong.host_functions_written_back"),
    "blind5-early-return": run_is("_wrong.early_return"),
    "blind5-lower-inside-guard": run_is("_wrong.lower_inside_guard"),
    "blind5-copy-drops-attrs": run_is(
        "_mistakes.rebuilt_copy(attrs=False, global_infos=False, option_lifted=True)"
    ),
    "blind5-new-module-of-updates": run_is("_wrong.new_module_of_updates"),
}
