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

Each variant makes one mistake in one step of the reference fix of patches/0001
(bugs/allocate_workspace/reference_fix.py): a step function of it replaced, or, for a step inside
its mutator, a subclass of ``_WorkspaceThreader`` with that step replaced."""

from bugs.allocate_workspace import reference_fix as fix
from bugs.allocate_workspace.wrong_fixes import (
    _allocating_anywhere,
    _blind_allocated_in_first_block,
    _module_level_sizes,
    _top_down,
)
from bugs.allocate_workspace.wrong_fixes_round2 import _ChaseOnce, _renamed_always
from harness.wrong_fixes import patched_install
from tvm import relax

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


@relax.expr_functor.mutator
class _ExternalAllocates(fix._WorkspaceThreader._cls):
    # the check that code inside an external function cannot allocate is dropped
    _workspace = _allocating_anywhere


def _callers_closure_one_sweep(funcs, usages, taking):
    taking = set(taking)
    for name, func in funcs.items():  # one sweep, in the module's order
        if name not in taking and fix._takes_workspace(func, taking, usages[name]):
            taking.add(name)
    return taking


def _needs_workspace_any(sizes):
    return bool(sizes)


_INSTALLS = {
    "blind3-takers-one-sweep": lambda: patched_install(
        fix, {"_callers_closure": _callers_closure_one_sweep}
    ),
    "blind3-sizes-module-level-only": lambda: patched_install(fix, {"_sizes": _module_level_sizes}),
    "blind3-nested-sized-ignored": lambda: patched_install(fix, {"_takes_workspace": _top_down}),
    "blind3-callee-one-alias-level": lambda: patched_install(
        fix, {"_WorkspaceThreader": _ChaseOnce}
    ),
    "blind3-private-renamed-public": lambda: patched_install(fix, {"_renamed": _renamed_always}),
    "blind3-external-caller-allocates": lambda: patched_install(
        fix, {"_WorkspaceThreader": _ExternalAllocates}
    ),
    "blind3-zero-size-workspace": lambda: patched_install(
        fix, {"_needs_workspace": _needs_workspace_any}
    ),
    "blind3-alloc-in-dataflow-block": lambda: patched_install(
        fix, {"_allocated_at_entry": _blind_allocated_in_first_block}
    ),
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return _INSTALLS[name]()
