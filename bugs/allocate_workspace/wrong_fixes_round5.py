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
"""Blind round 5 wrong fixes of the AllocateWorkspace report (patches/0001)."""

import tvm
from bugs.allocate_workspace import reference_fix as fix
from harness.wrong_fixes import patched_install
from tvm import relax

WRONG_FIXES = {
    "blind5-local-sizes-ignored": "W and the 'any size' check read WorkspaceSize of "
    "module-level functions only, not of local functions",
    "blind5-one-sweep": "the takers are grown by one sweep over the functions, not to a "
    "fixpoint: a caller visited before its callee is found to take the workspace is missed",
    "blind5-alias-one-hop": "a callee bound to a variable is resolved one binding deep: "
    "`f = cls.a; g = f; g(x)` gets no workspace argument",
    "blind5-alloc-in-dataflow": "the entry allocation is prepended to the first block whatever "
    "its kind: it lands inside the dataflow block",
    "blind5-equal-callees-merged": "structurally equal takers are not kept apart: add_func's "
    "deduplicated GlobalVar is used for both",
    "blind5-global-symbol-stale": "a renamed function keeps its old global_symbol",
    "blind5-external-scope-reset": "a local function nested in an external function that is "
    "not itself external resets the 'inside external code' context: it allocates the "
    "workspace in code handed to the backend instead of raising",
}


def _sizes_module_level(mod):
    sizes = []
    for _, func in mod.functions_items():
        # mistake: the local functions' WorkspaceSize is not collected
        if isinstance(func, relax.Function) and fix._attr(func, fix._SIZE) is not None:
            sizes.append(int(fix._attr(func, fix._SIZE)))
    return sizes


def _one_sweep(funcs, usages, taking):
    taking = set(taking)
    for name, func in funcs.items():  # mistake: one sweep, no fixpoint
        if name not in taking and fix._takes_workspace(func, taking, usages[name]):
            taking.add(name)
    return taking


def _allocated_in_first_block(func, allocations):
    bindings = [relax.VarBinding(var, alloc) for var, alloc in allocations]
    blocks = list(func.body.blocks)
    if blocks:  # mistake: a dataflow block is extended too
        kind = type(blocks[0])
        blocks[0] = kind([*bindings, *blocks[0].bindings])
    else:
        blocks.insert(0, relax.BindingBlock(bindings))
    body = relax.SeqExpr(blocks, func.body.body)
    return relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs, func.span)


def _add_renamed_merging(builder, func, name, added):
    return builder.add_func(func, name)  # mistake: a deduplicated GlobalVar is kept


def _renamed_keeping_symbol(func, new_name):
    return func  # mistake: global_symbol not updated


_BASE = fix._WorkspaceThreader._cls


@relax.expr_functor.mutator
class _OneHopThreader(_BASE):
    def _callee_takes_workspace(self, op):
        if isinstance(op, relax.Var) and self.lookup_binding(op) is not None:
            op = self.lookup_binding(op)  # mistake: `if`, not `while`
        if isinstance(op, tvm.ir.GlobalVar):
            return any(op.same_as(gv) for gv in self.gvar_map.values())
        if isinstance(op, relax.Function) and len(op.params) > 0:
            return any(op.params[-1].same_as(p) for p in self.ws_params)
        return False


@relax.expr_functor.mutator
class _ResettingThreader(_BASE):
    def visit_function_(self, op):
        saved = self.workspace, self.allocations, self.function, self.external
        name, self.module_level = self.module_level, None
        usage = self.usages[name] if name is not None else fix._usage(op)
        self.function = name if name is not None else self.local_name
        self.local_name = None
        # mistake: a non-external function resets the enclosing external context
        self.external = self.function if fix._is_external(op) else None
        self.allocations = []
        if fix._takes_workspace(op, self.taking, usage):
            param = relax.Var("workspace", self.ws_ty)
            self.ws_params.append(param)
            self.workspace = param
            op = relax.Function(
                [*op.params, param], op.body, op.ret_ty, op.is_pure, op.attrs, op.span
            )
        else:
            self.workspace = None
        new = super(_BASE, self).visit_function_(op)
        if self.allocations:
            new = fix._allocated_at_entry(new, self.allocations)
        self.workspace, self.allocations, self.function, self.external = saved
        if fix._attr(new, fix._SIZE) is not None:
            new = new.without_attr(fix._SIZE)
        return new


_PATCHES = {
    "blind5-local-sizes-ignored": {"_sizes": _sizes_module_level},
    "blind5-one-sweep": {"_callers_closure": _one_sweep},
    "blind5-alias-one-hop": {"_WorkspaceThreader": _OneHopThreader},
    "blind5-alloc-in-dataflow": {"_allocated_at_entry": _allocated_in_first_block},
    "blind5-equal-callees-merged": {"_add_renamed": _add_renamed_merging},
    "blind5-global-symbol-stale": {"_renamed": _renamed_keeping_symbol},
    "blind5-external-scope-reset": {"_WorkspaceThreader": _ResettingThreader},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
