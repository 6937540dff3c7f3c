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
its mutator, a copy of ``_WorkspaceThreader`` whose step is switched (``_STEPS``)."""

import tvm
from bugs.allocate_workspace import reference_fix as fix
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

# the switchable steps of the copied mutator (all off: the reference fix's mutator)
_STEPS = {"one_alias_level": False, "external_allocates": False}


@relax.expr_functor.mutator
class _WorkspaceThreader(relax.PyExprMutator):
    """A copy of the reference fix's _WorkspaceThreader with two switchable steps (_STEPS)."""

    def __init__(self, mod, size, taking):
        super().__init__(mod)
        self.size = size
        self.ws_ty = relax.TensorType([size], "uint8")
        self.taking = taking  # names of the module-level functions taking the workspace
        self.gvar_map = {}  # old name -> new GlobalVar
        self.ws_params = []
        self.workspace = None  # the workspace of the function being visited
        self.allocations = []  # (var, alloc) the function being visited allocates at entry
        self.function = None  # name of the function being visited
        self.external = None  # name of the innermost external function enclosing it, or itself
        self.module_level = None  # name of the module-level function about to be visited
        self.local_name = None  # name of the variable the local function being visited binds
        self.usages = {}  # module-level name -> _usage

    def add_signatures(self, mod):
        """Re-add every function taking the workspace under a fresh GlobalVar."""
        for name in sorted(self.taking):
            func = mod[name]
            sig = relax.Function(
                [*func.params, relax.Var("workspace", self.ws_ty)],
                func.body,
                func.ret_ty,
                func.is_pure,
                func.attrs,
                func.span,
            )
            self.gvar_map[name] = fix._add_renamed(self.builder_, sig, name, self.gvar_map.values())

    def _workspace(self, callee):
        """The workspace for a call of ``callee`` (its name): the function's parameter, or
        its entry allocation."""
        if self.workspace is None:
            if self.external is not None and not _STEPS["external_allocates"]:
                raise ValueError(
                    f"AllocateWorkspace: `{self.function}` calls `{callee}`, which takes the "
                    "workspace, but does not take it itself, and it is part of the external "
                    f"function `{self.external}`, where the workspace cannot be allocated. Give "
                    f"`{self.function}` the Composite attribute, or make the call outside "
                    f"`{self.external}`."
                )
            alloc = relax.op.builtin.alloc_tensor(relax.ShapeExpr([self.size]), "uint8", 0)
            self.workspace = relax.Var("workspace_main", self.ws_ty)
            self.allocations.append((self.workspace, self.builder_.normalize(alloc)))
        return self.workspace

    def visit_global_var_(self, op):
        new = self.gvar_map.get(op.name_hint)
        return op if new is None or new.same_as(op) else new

    def visit_function_(self, op):
        saved = self.workspace, self.allocations, self.function, self.external
        name, self.module_level = self.module_level, None
        usage = self.usages[name] if name is not None else fix._usage(op)
        self.function = name if name is not None else self.local_name
        self.local_name = None
        if fix._is_external(op):
            self.external = self.function
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
        new = super().visit_function_(op)
        if self.allocations:
            new = fix._allocated_at_entry(new, self.allocations)
        self.workspace, self.allocations, self.function, self.external = saved
        if fix._attr(new, fix._SIZE) is not None:
            new = new.without_attr(fix._SIZE)
        return new

    def visit_var_binding_(self, binding):
        if isinstance(binding.value, relax.Function):
            self.local_name = binding.var.name
        super().visit_var_binding_(binding)

    def _callee_takes_workspace(self, op):
        if _STEPS["one_alias_level"]:
            # an `if` where the reference has a `while`: one variable is followed, not a chain
            if isinstance(op, relax.Var) and self.lookup_binding(op) is not None:
                op = self.lookup_binding(op)
        else:
            while isinstance(op, relax.Var) and self.lookup_binding(op) is not None:
                op = self.lookup_binding(op)  # a local function, or a GlobalVar bound to a Var
        if isinstance(op, tvm.ir.GlobalVar):
            return any(op.same_as(gv) for gv in self.gvar_map.values())
        if isinstance(op, relax.Function) and len(op.params) > 0:
            return any(op.params[-1].same_as(p) for p in self.ws_params)
        return False

    def visit_call_(self, op):
        new_op = self.visit_expr(op.op)
        if not self._callee_takes_workspace(new_op):
            return super().visit_call_(op)
        args = [self.visit_expr(arg) for arg in op.args]
        args.append(self._workspace(fix._name_of(op.op)))
        return relax.Call(new_op, args, op.attrs, op.ty_args, op.span)


def _callers_closure_one_sweep(funcs, usages, taking):
    taking = set(taking)
    for name, func in funcs.items():  # one sweep, in the module's order
        if name not in taking and fix._takes_workspace(func, taking, usages[name]):
            taking.add(name)
    return taking


def _sizes_module_level_only(mod):
    sizes = []
    for _, func in mod.functions_items():
        if isinstance(func, relax.Function) and fix._attr(func, fix._SIZE) is not None:
            sizes.append(int(fix._attr(func, fix._SIZE)))
    return sizes


def _takes_workspace_no_nested(func, taking, usage):
    if fix._attr(func, fix._SIZE) is not None:
        return True
    names, _nested_sized = usage
    return fix._is_external(func) and bool(names & taking)


def _renamed_always_public(func, new_name):
    return func.with_attr("global_symbol", new_name)


def _needs_workspace_any(sizes):
    return bool(sizes)


def _allocated_in_first_block(func, allocations):
    bindings = [relax.VarBinding(var, alloc) for var, alloc in allocations]
    blocks = list(func.body.blocks)
    if blocks:
        kind = (
            relax.DataflowBlock
            if isinstance(blocks[0], relax.DataflowBlock)
            else relax.BindingBlock
        )
        blocks[0] = kind([*bindings, *blocks[0].bindings])
    else:
        blocks.insert(0, relax.BindingBlock(bindings))
    body = relax.SeqExpr(blocks, func.body.body)
    return relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs, func.span)


def _with_steps(**steps):
    """Install the copied mutator with ``steps`` switched on."""

    def install():
        _STEPS.update(steps)
        undo = patched_install(fix, {"_WorkspaceThreader": _WorkspaceThreader})

        def uninstall():
            undo()
            for key in steps:
                _STEPS[key] = False

        return uninstall

    return install


_INSTALLS = {
    "blind3-takers-one-sweep": lambda: patched_install(
        fix, {"_callers_closure": _callers_closure_one_sweep}
    ),
    "blind3-sizes-module-level-only": lambda: patched_install(
        fix, {"_sizes": _sizes_module_level_only}
    ),
    "blind3-nested-sized-ignored": lambda: patched_install(
        fix, {"_takes_workspace": _takes_workspace_no_nested}
    ),
    "blind3-callee-one-alias-level": _with_steps(one_alias_level=True),
    "blind3-private-renamed-public": lambda: patched_install(
        fix, {"_renamed": _renamed_always_public}
    ),
    "blind3-external-caller-allocates": _with_steps(external_allocates=True),
    "blind3-zero-size-workspace": lambda: patched_install(
        fix, {"_needs_workspace": _needs_workspace_any}
    ),
    "blind3-alloc-in-dataflow-block": lambda: patched_install(
        fix, {"_allocated_at_entry": _allocated_in_first_block}
    ),
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return _INSTALLS[name]()
