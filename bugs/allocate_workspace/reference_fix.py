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
"""Reference fix for apache/tvm#20479: AllocateWorkspace leaves a dangling GlobalVar.

A Python reimplementation of ``relax.transform.AllocateWorkspace`` with the semantics the
tests in tests/python/relax/test_transform_allocate_workspace.py and
the proof tests beside this file expect, and patches/0001 implements in C++.
``install()`` replaces ``tvm.relax.transform.AllocateWorkspace`` (and the same name in
``tvm.relax.transform.transform``); the CUTLASS and cuDNN partitioners look the pass up on
``tvm.relax.transform`` when they run, so they pick the replacement up too.

Semantics (W = the largest ``WorkspaceSize`` of any function, local functions included;
nothing changes when there is none, or W is 0):

* A function *takes the workspace* when it carries ``WorkspaceSize``, or when it is an
  external function (``Codegen`` or ``Composite``) that references a module-level function
  taking the workspace or contains a local function with ``WorkspaceSize`` (bottom-up: a
  Codegen function whose partitioner copied ``WorkspaceSize`` from its first binding only
  still takes it for a later local Composite function). Module-level functions: a fixpoint
  over the GlobalVars each function references, collected once. It gets one trailing
  parameter ``workspace: R.Tensor((W,), "uint8")``, loses ``WorkspaceSize``, and passes
  that parameter on to every call it makes to a function taking the workspace.
* A module-level function that takes the workspace changes its signature, so it is
  re-added under a fresh GlobalVar (the name supply gives ``inner`` -> ``inner1``, exactly
  as today) and the old GlobalVar is removed; its ``global_symbol``, if it has one, becomes
  the new name. Every reference to the old GlobalVar, in every function (Codegen and
  Composite ones included), is rewritten to the new one.
* A call takes the workspace as its last argument when its callee takes it: a renamed
  GlobalVar, a local function given the parameter, or a variable bound to either
  (``f = cls.inner; f(x)``).
* Any other function that makes such a call allocates the workspace once, at its entry,
  ``workspace_main = R.builtin.alloc_tensor(R.shape([W]), R.dtype("uint8"),
  R.prim_value(0))`` as the first binding of an ordinary (non-dataflow) block, and passes
  it to every such call: calls in any dataflow block, in either branch of an If, or after
  it all see the one allocation. A function making no such call allocates nothing. An
  external function, or a function nested in one, never allocates (the workspace would
  live in code handed to a backend): that is a ValueError naming caller, callee and
  external function (the C++ throws ValueError too), reached only by a local function
  without Codegen/Composite inside an external function, or an external function calling a
  taker bound outside it.

For TVM's existing case (a Codegen function with ``WorkspaceSize`` whose Composite
functions are local) this gives today's output except that the entry functions'
``workspace_main`` moves from the start of their dataflow block to an ordinary block in
front of it (patches/0001 edits TVM's test_single_attention accordingly).

Blueprint of the C++ change, src/relax/transform/allocate_workspace.cc: see patches/0001
(``WorkspaceUsage`` collects, once, per function: sized, external, the GlobalVars it
references, a sized nested function; ``WorkspaceProvider::Run`` runs the fixpoint,
re-adds the takers under new GlobalVars, then rewrites every Relax function).
"""

from collections.abc import Callable

import tvm
from tvm import relax

_SIZE = "WorkspaceSize"
_EXTERNAL = ("Codegen", "Composite")


def _attr(func, key):
    attrs = func.attrs
    if attrs is None or key not in attrs:
        return None
    return attrs[key]


def _is_external(func):
    return any(_attr(func, key) is not None for key in _EXTERNAL)


def _usage(func):
    """Collected once per function: (names of the GlobalVars it references, nested functions
    included; whether a function nested in it carries WorkspaceSize)."""
    names, nested = set(), []

    def visit(expr):
        if isinstance(expr, tvm.ir.GlobalVar):
            names.add(expr.name_hint)
        elif isinstance(expr, relax.Function) and not expr.same_as(func):
            nested.append(_attr(expr, _SIZE) is not None)

    relax.analysis.post_order_visit(func, visit)
    return names, any(nested)


# The steps below are separate functions so that bugs/allocate_workspace/wrong_fixes.toml can
# replace one of them.


def _takes_workspace(func, taking, usage):
    """Whether ``func`` (module-level or local, its ``usage``) takes the workspace, given the
    names of the module-level functions known to take it."""
    if _attr(func, _SIZE) is not None:
        return True
    names, nested_sized = usage
    return _is_external(func) and (bool(names & taking) or nested_sized)


def _workspace_size(sizes):
    """W: the largest WorkspaceSize."""
    return max(sizes)


def _needs_workspace(sizes):
    """Whether the pass changes anything: some WorkspaceSize is above 0 (none, or all 0:
    nothing changes, as in the C++ pass)."""
    return any(sizes)


def _callers_closure(funcs, usages, taking):
    """``taking`` grown by the external functions that call into it, transitively."""
    taking = set(taking)
    grew = True
    while grew:
        grew = False
        for name, func in funcs.items():
            if name not in taking and _takes_workspace(func, taking, usages[name]):
                taking.add(name)
                grew = True
    return taking


def _functions_taking_workspace(funcs, usages):
    """Names of the module-level functions that take the workspace."""
    return _callers_closure(funcs, usages, set())


def _renamed(func, new_name):
    """A function re-added under ``new_name``: its global_symbol, if it has one, follows."""
    if _attr(func, "global_symbol") is not None:
        return func.with_attr("global_symbol", new_name)
    return func


def _add_renamed(builder, func, name, added):
    """Add ``func`` under a fresh name from ``name``; return its GlobalVar. add_func returns
    the GlobalVar of a structurally equal function already added (one of ``added``): the two
    are kept apart, each under a name of its own."""
    gvar = builder.add_func(func, name)
    if not any(gvar.same_as(other) for other in added):
        return gvar
    taken = {gv.name_hint for gv in builder.get().get_global_vars()}
    suffix = 1
    while f"{name}{suffix}" in taken:
        suffix += 1
    gvar = tvm.ir.GlobalVar(f"{name}{suffix}")
    relax.expr._update_type(gvar, func.ty)
    builder.update_func(gvar, func)
    return gvar


def _name_of(callee):
    """A callee's name for a message: its GlobalVar's or variable's, else its script."""
    if isinstance(callee, tvm.ir.GlobalVar):
        return callee.name_hint
    if isinstance(callee, relax.Var):
        return callee.name
    return callee.script()


def _allocated_at_entry(func, allocations):
    """``func`` with ``var = alloc`` bindings first in an ordinary block of its body."""
    bindings = [relax.VarBinding(var, alloc) for var, alloc in allocations]
    blocks = list(func.body.blocks)
    if blocks and not isinstance(blocks[0], relax.DataflowBlock):
        blocks[0] = relax.BindingBlock([*bindings, *blocks[0].bindings])
    else:
        blocks.insert(0, relax.BindingBlock(bindings))
    body = relax.SeqExpr(blocks, func.body.body)
    return relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs, func.span)


@relax.expr_functor.mutator
class _WorkspaceThreader(relax.PyExprMutator):
    """Appends the workspace parameter and argument; maps old GlobalVars to new ones."""

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
            self.gvar_map[name] = _add_renamed(self.builder_, sig, name, self.gvar_map.values())

    def _workspace(self, callee):
        """The workspace for a call of ``callee`` (its name): the function's parameter, or
        its entry allocation."""
        if self.workspace is None:
            if self.external is not None:
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
        usage = self.usages[name] if name is not None else _usage(op)
        self.function = name if name is not None else self.local_name
        self.local_name = None
        if _is_external(op):
            self.external = self.function
        self.allocations = []
        if _takes_workspace(op, self.taking, usage):
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
            new = _allocated_at_entry(new, self.allocations)
        self.workspace, self.allocations, self.function, self.external = saved
        if _attr(new, _SIZE) is not None:
            new = new.without_attr(_SIZE)
        return new

    def visit_var_binding_(self, binding):
        if isinstance(binding.value, relax.Function):
            self.local_name = binding.var.name
        super().visit_var_binding_(binding)

    def _callee_takes_workspace(self, op):
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
        args.append(self._workspace(_name_of(op.op)))
        return relax.Call(new_op, args, op.attrs, op.ty_args, op.span)


def _sizes(mod):
    """Every WorkspaceSize in the module, local functions included."""
    sizes = []

    def visit(expr):
        if isinstance(expr, relax.Function) and _attr(expr, _SIZE) is not None:
            sizes.append(int(_attr(expr, _SIZE)))

    for _, func in mod.functions_items():
        if isinstance(func, relax.Function):
            relax.analysis.post_order_visit(func, visit)
    return sizes


def allocate_workspace(mod: tvm.IRModule) -> tvm.IRModule:
    """The pass function: see the module docstring for the semantics."""
    funcs = {gv.name_hint: f for gv, f in mod.functions_items() if isinstance(f, relax.Function)}
    sizes = _sizes(mod)
    if not _needs_workspace(sizes):
        return mod
    usages = {name: _usage(func) for name, func in funcs.items()}
    taking = _functions_taking_workspace(funcs, usages)
    threader = _WorkspaceThreader(mod, _workspace_size(sizes), taking)
    threader.usages = usages
    threader.add_signatures(mod)
    builder = threader.builder_
    for name, func in funcs.items():
        threader.module_level = name
        new_func = threader.visit_expr(func)
        gvar = threader.gvar_map.get(name, mod.get_global_var(name))
        if name in taking:
            new_func = _renamed(new_func, gvar.name_hint)
        builder.update_func(gvar, new_func)
    result = builder.get()
    for name in taking:
        del result[name]
    return result


def AllocateWorkspace() -> tvm.ir.transform.Pass:
    """Drop-in replacement of ``tvm.relax.transform.AllocateWorkspace``."""
    return tvm.ir.transform.module_pass(
        lambda mod, _ctx: allocate_workspace(mod), opt_level=0, name="AllocateWorkspace"
    )


def install() -> Callable[[], None]:
    """Replace relax.transform.AllocateWorkspace by the reference fix; return the undo."""
    saved = [(m, m.AllocateWorkspace) for m in (relax.transform, relax.transform.transform)]
    for module, _ in saved:
        module.AllocateWorkspace = AllocateWorkspace

    def uninstall():
        for module, original in saved:
            module.AllocateWorkspace = original

    return uninstall
