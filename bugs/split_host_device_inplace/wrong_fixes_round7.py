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
"""Blind round 7 wrong fixes of the split_host_device_inplace reference fix (patch 0006).

Each replaces the reference fix's ``run`` (the pass on a copy of its input). The released pass
``inner`` writes ``updates`` and ``device_mod`` into the module it is given in place, so running
it on ``c = mod.clone()`` leaves in ``c`` the module as the C++ has it right after its two
writes (before ConvertSSA and LowerDeviceKernelLaunches): the wrong fixes use that state.

Each is the reference fix's text with ``run`` changed (harness/wrong_fixes.py: EDITS;
``run_is`` and the mistakes it names in wrong_fixes.py).
"""

from bugs.split_host_device_inplace.wrong_fixes import run_is

WRONG_FIXES = {
    "blind7-cow-second-write-only": (
        "mod->Update(updates); mod.CopyOnWrite()->Update(device_mod): "
        "the copy is taken after the first write, so the caller's module keeps the rewritten host "
        "functions"
    ),
    "blind7-guard-returns-early": (
        "the guard is written as `if (nothing to write) return mod;`, "
        "skipping ConvertSSA: a module without kernels comes back in non-SSA form"
    ),
    "blind7-copy-drops-attrs": (
        "the copy is built as IRModule(mod->functions): the output loses "
        "the module's attributes (and global infos)"
    ),
    "blind7-copy-drops-global-infos": (
        "the copy is built as IRModule(mod->functions, {}, "
        "mod->attrs): the output loses the module's global infos"
    ),
    "blind7-copy-in-local": (
        "the writes go through a local `IRModule out = mod; "
        "out.CopyOnWrite()->Update(...)` but ConvertSSA/LowerDeviceKernelLaunches run on the "
        "unwritten mod: the kernels are lost from the output"
    ),
}


EDITS = {
    "blind7-cow-second-write-only": run_is("_wrong.copy_after_first_write"),
    "blind7-guard-returns-early": run_is("_wrong.guard_returns_early"),
    "blind7-copy-drops-attrs": run_is("_wrong.drops_when_written(keep_attrs=False)"),
    "blind7-copy-drops-global-infos": run_is("_wrong.drops_when_written(keep_attrs=True)"),
    "blind7-copy-in-local": run_is("_wrong.copy_in_local"),
}
