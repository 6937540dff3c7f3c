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
tests/proof/test_allocate_workspace_*.py expect. ``install()`` replaces
``tvm.relax.transform.AllocateWorkspace`` (and the same name in
``tvm.relax.transform.transform``); the CUTLASS and cuDNN partitioners look the pass up on
``tvm.relax.transform`` when they run, so they pick the replacement up too.

Semantics (W = the largest ``WorkspaceSize`` of a module-level function; nothing changes
when there is none):

* A function *takes the workspace* when it carries ``WorkspaceSize``, or when it is an
  external function (``Codegen`` or ``Composite``) that calls a function taking the
  workspace (closed transitively over module-level functions; a local function inside an
  external function likewise). It gets one trailing parameter ``workspace:
  R.Tensor((W,), "uint8")``, loses ``WorkspaceSize``, and passes that parameter on to
  every call it makes to a function taking the workspace, local or module-level.
* A module-level function that takes the workspace changes its signature, so it is
  re-added under a fresh GlobalVar (the name supply gives ``inner`` -> ``inner1``, exactly
  as today) and the old GlobalVar is removed; its ``global_symbol``, if it has one, becomes
  the new name. Every reference to the old GlobalVar, in every function (Codegen and
  Composite ones included), is rewritten to the new one.
* Any other function (the entry into external code) allocates the workspace once,
  ``workspace_main = R.builtin.alloc_tensor(R.shape([W]), R.dtype("uint8"),
  R.prim_value(0))``, in front of its first call to a function taking the workspace, and
  passes it to every such call. A function making no such call allocates nothing.
  (The allocation is bound in the block of that first call, so calls in a later dataflow
  block or another scope of the same function are not supported; today's allocation, at
  the start of the first dataflow block, has the same limit.)

For TVM's existing case (a Codegen function with ``WorkspaceSize`` whose Composite
functions are local) this gives exactly today's output, ``..._cutlass`` ->
``..._cutlass1`` included.

Blueprint of the C++ change, src/relax/transform/allocate_workspace.cc:

1. ``WorkspaceProvider::Run``: after computing ``max_workspace_size_``, compute the set of
   module-level functions that take the workspace (functions with ``kWorkspaceSize``, then a
   fixpoint adding ``kCodegen``/``kComposite`` functions whose body references a member;
   a small ExprVisitor collecting GlobalVars). Give ``ExternFunctionRewriter`` that set and
   the old -> new GlobalVar map: create each new GlobalVar first (``AddFunction`` of the
   signature with the appended parameter, which also fixes the name and the type), then
   ``UpdateFunction`` it with the rewritten body and ``kGlobalSymbol`` = the new name
   (only when the function had a ``kGlobalSymbol``), and remove the old GlobalVar.
2. ``ExternFunctionRewriter::VisitExpr_(const FunctionNode*)``: append the workspace
   parameter when the function is in the set (not only when it has ``kWorkspaceSize``) and
   use that parameter for the calls in its body; ``VisitExpr_(const CallNode*)``: also
   append it to calls whose op is a GlobalVar in the map (after remapping the op), and to
   calls of local functions only when the callee actually got the parameter.
3. ``WorkspaceProvider::Run``: do not skip ``kCodegen``/``kComposite`` functions when
   rewriting references (``VisitExpr_(const GlobalVarNode*)`` already maps old to new).
   That skip, together with the rename (``AddFunction`` under a name that is still taken),
   is the dangling GlobalVar of the report.
4. ``WorkspaceProvider``: emit ``workspace_main`` lazily, in ``VisitExpr_(const
   CallNode*)`` right before the first call that needs it, instead of at the start of
   every dataflow block of every function (the unused allocation of the report).
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


def _references(func, names):
    """Whether ``func`` (nested functions included) references a GlobalVar named in names."""
    found = []

    def visit(expr):
        if isinstance(expr, tvm.ir.GlobalVar) and expr.name_hint in names:
            found.append(expr)

    relax.analysis.post_order_visit(func, visit)
    return bool(found)


def _takes_workspace(func, names):
    if _attr(func, _SIZE) is not None:
        return True
    return _is_external(func) and _references(func, names)


# The steps below are separate functions so that wrong_fixes/allocate_workspace.py can
# replace one of them.


def _workspace_size(sizes):
    """W: the largest WorkspaceSize."""
    return max(sizes)


def _callers_closure(funcs, taking):
    """``taking`` grown by the external functions that call into it, transitively."""
    taking = set(taking)
    grew = True
    while grew:
        grew = False
        for name, func in funcs.items():
            if name not in taking and _takes_workspace(func, taking):
                taking.add(name)
                grew = True
    return taking


def _functions_taking_workspace(funcs):
    """Names of the module-level functions that take the workspace."""
    return _callers_closure(funcs, {n for n, f in funcs.items() if _attr(f, _SIZE) is not None})


def _renamed(func, new_name):
    """A function re-added under ``new_name``: its global_symbol, if it has one, follows."""
    if _attr(func, "global_symbol") is not None:
        return func.with_attr("global_symbol", new_name)
    return func


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
        self.workspace = None
        self.module_level = None  # name of the module-level function about to be visited

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
            self.gvar_map[name] = self.builder_.add_func(sig, name)

    def _workspace(self):
        if self.workspace is None:
            alloc = relax.op.builtin.alloc_tensor(relax.ShapeExpr([self.size]), "uint8", 0)
            self.workspace = self.builder_.emit(alloc, "workspace_main")
        return self.workspace

    def visit_global_var_(self, op):
        new = self.gvar_map.get(op.name_hint)
        return op if new is None or new.same_as(op) else new

    def visit_function_(self, op):
        saved = self.workspace
        # a module-level function takes the workspace when it is in self.taking, a local one
        # when _takes_workspace says so (the same answer: self.taking is closed over callers)
        name, self.module_level = self.module_level, None
        if name in self.taking if name is not None else _takes_workspace(op, self.taking):
            param = relax.Var("workspace", self.ws_ty)
            self.ws_params.append(param)
            self.workspace = param
            op = relax.Function(
                [*op.params, param], op.body, op.ret_ty, op.is_pure, op.attrs, op.span
            )
        else:
            self.workspace = None
        new = super().visit_function_(op)
        self.workspace = saved
        if _attr(new, _SIZE) is not None:
            new = new.without_attr(_SIZE)
        return new

    def _callee_takes_workspace(self, op):
        if isinstance(op, tvm.ir.GlobalVar):
            return any(op.same_as(gv) for gv in self.gvar_map.values())
        if isinstance(op, relax.Var):
            callee = self.lookup_binding(op)
            if isinstance(callee, relax.Function) and len(callee.params) > 0:
                return any(callee.params[-1].same_as(p) for p in self.ws_params)
        return False

    def visit_call_(self, op):
        new_op = self.visit_expr(op.op)
        if not self._callee_takes_workspace(new_op):
            return super().visit_call_(op)
        args = [self.visit_expr(arg) for arg in op.args]
        args.append(self._workspace())
        return relax.Call(new_op, args, op.attrs, op.ty_args, op.span)


def allocate_workspace(mod: tvm.IRModule) -> tvm.IRModule:
    """The pass function: see the module docstring for the semantics."""
    funcs = {gv.name_hint: f for gv, f in mod.functions_items() if isinstance(f, relax.Function)}
    sizes = [int(_attr(f, _SIZE)) for f in funcs.values() if _attr(f, _SIZE) is not None]
    if not sizes:
        return mod
    taking = _functions_taking_workspace(funcs)
    threader = _WorkspaceThreader(mod, _workspace_size(sizes), taking)
    threader.add_signatures(mod)
    builder = threader.builder_
    for name, func in funcs.items():
        threader.workspace = None
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
