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
"""Wrong fixes of apache/tvm#20479 (AllocateWorkspace leaves a dangling GlobalVar).

Each one is the reference fix (bugs/allocate_workspace/reference_fix.py) with one step replaced.
"""

from collections.abc import Callable

import tvm
from bugs.allocate_workspace import reference_fix as fix
from tvm import relax

WRONG_FIXES = {
    "not-transitive": "only the direct external callers of a WorkspaceSize function take the "
    "workspace; a caller further up (Codegen -> Composite -> sized) allocates its own",
    "only-inner": "only the report's callee name is handled: a sized function not named "
    "'inner' loses WorkspaceSize and gets no workspace",
    "smallest": "the workspace has the smallest WorkspaceSize instead of the largest",
    "locals-not-rewritten": "references to renamed functions inside local (nested) functions "
    "are not rewritten",
    "strip-only": "WorkspaceSize is stripped and nothing else is done",
    "drop-global-symbol": "renamed functions lose their global_symbol",
    "every-caller-allocates": "only sized functions take the workspace; every caller, Codegen "
    "and Composite ones included, allocates its own",
    "composite-callers-skipped": "only the Codegen half of the skip is removed: references in "
    "module-level Composite functions are not rewritten",
    "private-gets-global-symbol": "a renamed private function gets a global_symbol (the released "
    "pass sets it on every renamed function)",
    "alloc-per-call": "the entry function allocates a fresh workspace for every call instead of "
    "one for all",
    "lazy-allocation": "the workspace is allocated lazily, in the block of the first call that "
    "needs it: a DataflowVar, or out of scope in the other branch of an If",
    "local-sized-missed": "takers are found top-down: a Codegen function whose only sized "
    "function is a local Composite does not take the workspace",
    "allocates-inside-external": "a Codegen function whose only sized function is a local "
    "Composite allocates the workspace in its own body",
    "module-level-sizes-only": "W is the largest WorkspaceSize of the module-level functions; "
    "a larger one of a local function is ignored",
    "bound-var-call-missed": "a call through a variable bound to a renamed GlobalVar "
    "(f = cls.inner; f(x)) gets no workspace argument",
    "one-binding-step": "a call through variables follows one binding only: g = f = cls.inner; "
    "g(x) gets no workspace argument",
    "equal-functions-merged": "the renamed functions are re-added through BlockBuilder's "
    "add_func, which merges structurally equal ones: two equal private takers become one",
    "zero-size-not-taker": "WorkspaceSize 0 reads as no WorkspaceSize: that function and its "
    "external callers keep their signatures while W, from another function, is above 0",
    "zero-size-allocated": "with every WorkspaceSize 0 the pass still runs: the sized functions "
    "and their callers take an empty workspace, renamed, and the entry allocates it",
    "blind-size-sum": "the workspace size is the sum of the WorkspaceSizes (one slot per "
    "sized function) instead of the largest",
    "blind-alloc-in-first-dataflow": "the entry allocation goes first in the function's first "
    "block even when that block is a dataflow block (the released placement)",
    "blind-codegen-only-external": "only Codegen functions count as external: a module-level "
    "Composite caller of a sized function allocates its own workspace instead of taking it",
    "blind-one-sweep": "the functions taking the workspace are found in one sweep in module "
    "order, not a fixpoint: a caller listed before its taking callee is missed",
    "blind-old-gvars-kept": "the renamed functions are added under their new GlobalVars but the "
    "old GlobalVars are not removed",
    "blind-local-outside-external": "a local function without Codegen/Composite nested in an "
    "external function is taken for ordinary code: it allocates the workspace instead of the error",
    "blind-usage-not-nested": "the GlobalVars a function references are collected without "
    "entering its local functions: a Codegen function whose only reference to a taker is in "
    "its local Composite function does not take the workspace",
}

_Threader = fix._WorkspaceThreader._cls  # the class behind the decorated mutator


def _sized(funcs):
    return {name for name, f in funcs.items() if fix._attr(f, fix._SIZE) is not None}


def _not_transitive(funcs, usages):
    sized = _sized(funcs)
    return sized | {n for n, f in funcs.items() if fix._takes_workspace(f, sized, usages[n])}


def _only_inner(mod):
    funcs = {}
    for gvar, func in mod.functions_items():
        if gvar.name_hint != "inner" and isinstance(func, relax.Function):
            func = func.without_attr(fix._SIZE) if fix._attr(func, fix._SIZE) else func
        funcs[gvar] = func
    return _reference_pass(tvm.IRModule(funcs, attrs=mod.attrs))


_reference_pass = fix.allocate_workspace


def _tracking_depth(visit_function_):
    """visit_function_ that counts the functions being visited (1: a module-level one) and
    remembers whether the module-level one is a Composite function."""

    def visit(self, op):
        self.depth = getattr(self, "depth", 0) + 1
        if self.depth == 1:
            self.in_composite = fix._attr(op, "Composite") is not None
        try:
            return visit_function_(self, op)
        finally:
            self.depth -= 1

    return visit


def _remap_unless(skip):
    original = _Threader.visit_global_var_

    def visit_global_var_(self, op):
        return op if skip(self) else original(self, op)

    return visit_global_var_


def _alloc_per_call(self, callee):
    if self.workspace is not None and not any(self.workspace.same_as(p) for p in self.ws_params):
        self.workspace = None  # forget the allocation made for the previous call
    return _reference_workspace(self, callee)


_reference_workspace = _Threader._workspace


def _lazy_workspace(self, callee):
    if self.workspace is None:  # emitted into whatever block the call is in
        alloc = relax.op.builtin.alloc_tensor(relax.ShapeExpr([self.size]), "uint8", 0)
        self.workspace = self.builder_.emit(alloc, "workspace_main")
    return self.workspace


def _top_down(func, taking, usage):
    """The takers rule without local functions: sized, or external referencing a taker."""
    names, _ = usage
    sized = fix._attr(func, fix._SIZE) is not None
    return sized or (fix._is_external(func) and bool(names & taking))


def _allocating_anywhere(self, callee):
    external, self.external = self.external, None
    try:
        return _reference_workspace(self, callee)
    finally:
        self.external = external


def _module_level_sizes(mod):
    funcs = [f for _, f in mod.functions_items() if isinstance(f, relax.Function)]
    return [int(fix._attr(f, fix._SIZE)) for f in funcs if fix._attr(f, fix._SIZE) is not None]


def _nonzero_size_takes(func, taking, usage):
    """The takers rule with the size read as a truth value: WorkspaceSize 0 is no size."""
    if fix._attr(func, fix._SIZE):
        return True
    names, nested_sized = usage
    return fix._is_external(func) and (bool(names & taking) or nested_sized)


_reference_callee = _Threader._callee_takes_workspace


def _callee_unless_bound_gvar(self, op):
    if isinstance(op, relax.Var) and isinstance(self.lookup_binding(op), tvm.ir.GlobalVar):
        return False
    return _reference_callee(self, op)


def _callee_one_step(self, op):
    if isinstance(op, relax.Var) and self.lookup_binding(op) is not None:
        op = self.lookup_binding(op)
        if isinstance(op, relax.Var):
            return False
    return _reference_callee(self, op)


_PATCHES = {
    "not-transitive": [(fix, "_functions_taking_workspace", _not_transitive)],
    "only-inner": [(fix, "allocate_workspace", _only_inner)],
    "smallest": [(fix, "_workspace_size", min)],
    "locals-not-rewritten": [
        (_Threader, "visit_function_", _tracking_depth(_Threader.visit_function_)),
        (_Threader, "visit_global_var_", _remap_unless(lambda self: self.depth > 1)),
    ],
    "strip-only": [
        (fix, "_functions_taking_workspace", lambda funcs, usages: set()),
        (fix, "_takes_workspace", lambda func, taking, usage: False),
    ],
    "drop-global-symbol": [
        (fix, "_renamed", lambda func, name: func.without_attr("global_symbol"))
    ],
    "every-caller-allocates": [
        (fix, "_takes_workspace", lambda func, *_: fix._attr(func, fix._SIZE) is not None)
    ],
    "composite-callers-skipped": [
        (_Threader, "visit_function_", _tracking_depth(_Threader.visit_function_)),
        (_Threader, "visit_global_var_", _remap_unless(lambda self: self.in_composite)),
    ],
    "private-gets-global-symbol": [
        (fix, "_renamed", lambda func, name: func.with_attr("global_symbol", name))
    ],
    "alloc-per-call": [(_Threader, "_workspace", _alloc_per_call)],
    "lazy-allocation": [(_Threader, "_workspace", _lazy_workspace)],
    "local-sized-missed": [(fix, "_takes_workspace", _top_down)],
    "allocates-inside-external": [
        (fix, "_takes_workspace", _top_down),
        (_Threader, "_workspace", _allocating_anywhere),
    ],
    "module-level-sizes-only": [(fix, "_sizes", _module_level_sizes)],
    "bound-var-call-missed": [(_Threader, "_callee_takes_workspace", _callee_unless_bound_gvar)],
    "one-binding-step": [(_Threader, "_callee_takes_workspace", _callee_one_step)],
    "equal-functions-merged": [
        (fix, "_add_renamed", lambda builder, func, name, _: builder.add_func(func, name))
    ],
    "zero-size-not-taker": [(fix, "_takes_workspace", _nonzero_size_takes)],
    "zero-size-allocated": [(fix, "_needs_workspace", lambda sizes: bool(sizes))],
}


# --- blind review: the variants below each change one step of the reference fix ---


def _blind_allocated_in_first_block(func, allocations):
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


def _blind_one_sweep(funcs, usages):
    taking = set()
    for name, func in funcs.items():
        if fix._takes_workspace(func, taking, usages[name]):
            taking.add(name)
    return taking


def _blind_keep_old_gvars(mod):
    funcs = {gv.name_hint: f for gv, f in mod.functions_items() if isinstance(f, relax.Function)}
    sizes = fix._sizes(mod)
    if not fix._needs_workspace(sizes):
        return mod
    usages = {name: fix._usage(func) for name, func in funcs.items()}
    taking = fix._functions_taking_workspace(funcs, usages)
    threader = fix._WorkspaceThreader(mod, fix._workspace_size(sizes), taking)
    threader.usages = usages
    threader.add_signatures(mod)
    builder = threader.builder_
    for name, func in funcs.items():
        threader.module_level = name
        new_func = threader.visit_expr(func)
        gvar = threader.gvar_map.get(name, mod.get_global_var(name))
        if name in taking:
            new_func = fix._renamed(new_func, gvar.name_hint)
        builder.update_func(gvar, new_func)
    return builder.get()  # the old GlobalVars of the renamed functions stay


def _blind_external_not_inherited(visit_function_):
    def visit(self, op):
        outer = self.external
        if not fix._is_external(op):
            self.external = None
        try:
            return visit_function_(self, op)
        finally:
            self.external = outer

    return visit


_reference_usage = fix._usage


def _blind_usage_not_nested(func):
    """_usage whose names skip the local functions (their WorkspaceSize is still seen)."""
    names = set()
    _, nested_sized = _reference_usage(func)

    def visit(expr):
        if isinstance(expr, tvm.ir.GlobalVar):
            names.add(expr.name_hint)

    for block in func.body.blocks:
        for binding in block.bindings:
            if not isinstance(binding.value, relax.Function):
                relax.analysis.post_order_visit(binding.value, visit)
    relax.analysis.post_order_visit(func.body.body, visit)
    return names, nested_sized


_PATCHES.update(
    {
        "blind-usage-not-nested": [(fix, "_usage", _blind_usage_not_nested)],
        "blind-size-sum": [(fix, "_workspace_size", sum)],
        "blind-alloc-in-first-dataflow": [
            (fix, "_allocated_at_entry", _blind_allocated_in_first_block)
        ],
        "blind-codegen-only-external": [(fix, "_EXTERNAL", ("Codegen",))],
        "blind-one-sweep": [(fix, "_functions_taking_workspace", _blind_one_sweep)],
        "blind-old-gvars-kept": [(fix, "allocate_workspace", _blind_keep_old_gvars)],
        "blind-local-outside-external": [
            (
                _Threader,
                "visit_function_",
                _blind_external_not_inherited(_Threader.visit_function_),
            )
        ],
    }
)


def install(name: str) -> Callable[[], None]:
    """Install the reference fix with the step of wrong fix ``name`` replaced; return the
    undo."""
    saved = [(owner, attr, getattr(owner, attr)) for owner, attr, _ in _PATCHES[name]]
    for owner, attr, value in _PATCHES[name]:
        setattr(owner, attr, value)
    uninstall_fix = fix.install()

    def uninstall():
        uninstall_fix()
        for owner, attr, value in reversed(saved):
            setattr(owner, attr, value)

    return uninstall
