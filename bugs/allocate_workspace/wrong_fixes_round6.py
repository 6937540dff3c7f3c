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
"""Blind round 6 wrong fixes of the AllocateWorkspace reference fix."""

import tvm
from bugs.allocate_workspace import reference_fix as fix
from harness.wrong_fixes import patched_install
from tvm import relax

WRONG_FIXES = {
    "blind6-first-size": "W is the first WorkspaceSize found, not the largest",
    "blind6-one-sweep": "the takers' closure is one sweep over the functions, not a fixpoint",
    "blind6-alloc-in-dataflow": "the entry allocation goes into the first block even if dataflow",
    "blind6-symbol-kept": "a re-added taker keeps its old global_symbol (not the new name)",
    "blind6-var-callee": "a call through a variable bound to a taker gets no workspace",
    "blind6-zero-size-runs": "the pass runs when there is a WorkspaceSize, even if all are 0",
    "blind6-equal-merged": "structurally equal takers are re-added under one shared GlobalVar",
}


def _one_sweep(funcs, usages, taking):
    taking = set(taking)
    for name, func in funcs.items():  # mistake: no repeat until nothing grows
        if name not in taking and fix._takes_workspace(func, taking, usages[name]):
            taking.add(name)
    return taking


def _alloc_first_block(func, allocations):
    bindings = [relax.VarBinding(var, alloc) for var, alloc in allocations]
    blocks = list(func.body.blocks)
    if blocks:  # mistake: a dataflow block gets the allocation too
        kind = type(blocks[0])
        blocks[0] = kind([*bindings, *blocks[0].bindings])
    else:
        blocks.insert(0, relax.BindingBlock(bindings))
    body = relax.SeqExpr(blocks, func.body.body)
    return relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs, func.span)


@relax.expr_functor.mutator
class _DirectCalleeOnly(fix._WorkspaceThreader._cls):
    def _callee_takes_workspace(self, op):
        if isinstance(op, tvm.ir.GlobalVar):  # mistake: no walk through bound variables
            return any(op.same_as(gv) for gv in self.gvar_map.values())
        if isinstance(op, relax.Function) and len(op.params) > 0:
            return any(op.params[-1].same_as(p) for p in self.ws_params)
        return False


_PATCHES = {
    "blind6-first-size": {"_workspace_size": lambda sizes: sizes[0]},
    "blind6-one-sweep": {"_callers_closure": _one_sweep},
    "blind6-alloc-in-dataflow": {"_allocated_at_entry": _alloc_first_block},
    "blind6-symbol-kept": {"_renamed": lambda func, new_name: func},
    "blind6-var-callee": {"_WorkspaceThreader": _DirectCalleeOnly},
    "blind6-zero-size-runs": {"_needs_workspace": lambda sizes: bool(sizes)},
    "blind6-equal-merged": {
        "_add_renamed": lambda builder, func, name, added: builder.add_func(func, name)
    },
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
