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
"""Round-7 blind wrong fixes of AllocateWorkspace (patches/0001): each one mistake in one step."""

import tvm
from bugs.allocate_workspace import reference_fix as fix
from harness.wrong_fixes import patched_install
from tvm import relax

WRONG_FIXES = {
    "blind7-size-first": "W is the first WorkspaceSize found, not the largest",
    "blind7-size-module-level": "W is taken over module-level functions only, local ones skipped",
    "blind7-one-sweep": "the takers are grown by one sweep over the functions, not a fixpoint",
    "blind7-nested-sized-ignored": (
        "an external function with a sized local function is not made a taker"
    ),
    "blind7-size-zero-runs": "the pass runs when every WorkspaceSize is 0 (only presence checked)",
    "blind7-symbol-kept": "a re-added public taker keeps its old global_symbol",
    "blind7-alloc-in-dataflow": (
        "the entry allocation goes into the first block even when it is a dataflow block"
    ),
    "blind7-var-callee-missed": (
        "a call through a variable bound to a taker does not pass the workspace"
    ),
}


def _size_first(sizes):
    return sizes[0]


def _sizes_module_level(mod):
    sizes = []
    for _, func in mod.functions_items():
        if isinstance(func, relax.Function) and fix._attr(func, fix._SIZE) is not None:
            sizes.append(int(fix._attr(func, fix._SIZE)))
    return sizes


def _one_sweep(funcs, usages, taking):
    taking = set(taking)
    for name, func in funcs.items():
        if name not in taking and fix._takes_workspace(func, taking, usages[name]):
            taking.add(name)
    return taking


def _takes_no_nested(func, taking, usage):
    if fix._attr(func, fix._SIZE) is not None:
        return True
    names, _nested = usage
    return fix._is_external(func) and bool(names & taking)


def _needs_any(sizes):
    return bool(sizes)


def _renamed_kept(func, _new_name):
    return func


def _alloc_first_block(func, allocations):
    bindings = [relax.VarBinding(var, alloc) for var, alloc in allocations]
    blocks = list(func.body.blocks)
    if blocks:
        first = blocks[0]
        kind = relax.DataflowBlock if isinstance(first, relax.DataflowBlock) else relax.BindingBlock
        blocks[0] = kind([*bindings, *first.bindings])
    else:
        blocks.insert(0, relax.BindingBlock(bindings))
    body = relax.SeqExpr(blocks, func.body.body)
    return relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs, func.span)


def _callee_no_var(self, op):
    if isinstance(op, tvm.ir.GlobalVar):
        return any(op.same_as(gv) for gv in self.gvar_map.values())
    if isinstance(op, relax.Function) and len(op.params) > 0:
        return any(op.params[-1].same_as(p) for p in self.ws_params)
    return False


PATCHES = {
    "blind7-size-first": {"_workspace_size": _size_first},
    "blind7-size-module-level": {"_sizes": _sizes_module_level},
    "blind7-one-sweep": {"_callers_closure": _one_sweep},
    "blind7-nested-sized-ignored": {"_takes_workspace": _takes_no_nested},
    "blind7-size-zero-runs": {"_needs_workspace": _needs_any},
    "blind7-symbol-kept": {"_renamed": _renamed_kept},
    "blind7-alloc-in-dataflow": {"_allocated_at_entry": _alloc_first_block},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name == "blind7-var-callee-missed":
        cls = fix._WorkspaceThreader._cls
        saved = cls._callee_takes_workspace
        cls._callee_takes_workspace = _callee_no_var
        undo = fix.install()

        def uninstall():
            undo()
            cls._callee_takes_workspace = saved

        return uninstall
    return patched_install(fix, PATCHES[name])
