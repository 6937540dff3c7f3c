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
"""Blind round 4: wrong fixes of AllocateWorkspace (patches/0001), each one step of the
reference fix done wrong."""

import tvm
from bugs.allocate_workspace import reference_fix as fix
from bugs.allocate_workspace.wrong_fixes import _module_level_sizes, _top_down
from bugs.allocate_workspace.wrong_fixes_round3 import _callers_closure_one_sweep
from tvm import relax

WRONG_FIXES = {
    "blind4-size-module-level-only": "W is the largest WorkspaceSize of the module-level "
    "functions only: a local Composite function asking for more gets a workspace too small",
    "blind4-takers-one-sweep": "the functions taking the workspace are found in one sweep over "
    "the module, not a fixpoint: a Codegen function met before the Composite function it calls "
    "(itself calling the sized one) is not found",
    "blind4-nested-sized-ignored": "an external function takes the workspace only when it "
    "references a module-level taker: a Codegen function whose only sized function is local "
    "does not take it, and the pass refuses the valid module",
    "blind4-alloc-in-first-dataflow-block": "the entry allocation is put at the start of the "
    "function's first dataflow block (as before the fix): a call in an ordinary block before it "
    "uses workspace_main before it is bound",
    "blind4-callee-through-var-missed": "a call passes the workspace only when its callee is a "
    "renamed GlobalVar or a local function itself, not a variable bound to one: "
    "f = cls.outer; f(x) calls outer1 without its workspace",
    "blind4-equal-takers-merged": "each taker is re-added with builder.add_func alone: two "
    "structurally equal takers get one GlobalVar, the second renamed function is lost",
    "blind4-global-symbol-kept": "a renamed taker keeps its global_symbol: a public Codegen "
    "function re-added as outer1 still says global_symbol 'outer'",
}


def _allocated_in_first_dataflow_block(func, allocations):
    bindings = [relax.VarBinding(var, alloc) for var, alloc in allocations]
    blocks = list(func.body.blocks)
    for k, block in enumerate(blocks):
        if isinstance(block, relax.DataflowBlock):
            blocks[k] = relax.DataflowBlock([*bindings, *block.bindings])
            break
    else:
        blocks.insert(0, relax.BindingBlock(bindings))
    body = relax.SeqExpr(blocks, func.body.body)
    return relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs, func.span)


@relax.expr_functor.mutator
class _DirectCalleeOnly(fix._WorkspaceThreader._cls):
    def _callee_takes_workspace(self, op):
        if isinstance(op, tvm.ir.GlobalVar):
            return any(op.same_as(gv) for gv in self.gvar_map.values())
        if isinstance(op, relax.Function) and len(op.params) > 0:
            return any(op.params[-1].same_as(p) for p in self.ws_params)
        if isinstance(op, relax.Var):  # a local function bound to the variable
            bound = self.lookup_binding(op)
            if isinstance(bound, relax.Function) and len(bound.params) > 0:
                return any(bound.params[-1].same_as(p) for p in self.ws_params)
        return False


def _add_renamed_alone(builder, func, name, _added):
    return builder.add_func(func, name)


def _renamed_keeps_symbol(func, _new_name):
    return func


PATCHES = {
    "blind4-size-module-level-only": {"_sizes": _module_level_sizes},
    "blind4-takers-one-sweep": {"_callers_closure": _callers_closure_one_sweep},
    "blind4-nested-sized-ignored": {"_takes_workspace": _top_down},
    "blind4-alloc-in-first-dataflow-block": {
        "_allocated_at_entry": _allocated_in_first_dataflow_block
    },
    "blind4-callee-through-var-missed": {"_WorkspaceThreader": _DirectCalleeOnly},
    "blind4-equal-takers-merged": {"_add_renamed": _add_renamed_alone},
    "blind4-global-symbol-kept": {"_renamed": _renamed_keeps_symbol},
}
