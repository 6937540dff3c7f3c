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
"""Second blind round: wrong fixes of allocate_workspace (patches/0001): each one small mistake in
one step of bugs/allocate_workspace/reference_fix.py."""

import tvm
from bugs.allocate_workspace import reference_fix as fix
from bugs.allocate_workspace.wrong_fixes import (
    _blind_allocated_in_first_block,
    _blind_external_not_inherited,
    _module_level_sizes,
)
from tvm import relax

WRONG_FIXES = {
    "blind2-one-sweep": "the takers are the sized functions grown by one sweep over the module "
    "instead of a fixpoint (an external caller listed before its external callee is missed)",
    "blind2-toplevel-sizes": "W is the largest WorkspaceSize of the module-level functions only, "
    "local functions' sizes left out",
    "blind2-usage-skips-nested": "the GlobalVars a function references are collected from its "
    "own body only, not from the functions nested in it",
    "blind2-var-chase-once": "a callee bound to a variable is followed one binding only "
    "(f = cls.outer; g = f; g(x) passes no workspace)",
    "blind2-alloc-in-dataflow": "the entry allocation is merged into the function's first "
    "binding block whatever its kind, so into a first dataflow block, not an ordinary one",
    "blind2-private-gets-symbol": "a renamed function always gets global_symbol = its new "
    "name, also one that had none (a private function turns public)",
    "blind2-external-not-inherited": "a local function inside an external function is taken "
    "as outside it unless it is external itself: it allocates the workspace in code handed "
    "to a backend instead of raising the ValueError",
}


def _one_sweep(funcs, usages):
    taking = {name for name, func in funcs.items() if fix._attr(func, fix._SIZE) is not None}
    for name, func in funcs.items():  # the mistake: one sweep, no fixpoint
        if name not in taking and fix._takes_workspace(func, taking, usages[name]):
            taking.add(name)
    return taking


def _usage_own_body(func):
    names, nested = set(), []

    def visit(expr):
        if isinstance(expr, tvm.ir.GlobalVar):
            names.add(expr.name_hint)
        elif isinstance(expr, relax.Function) and not expr.same_as(func):
            nested.append(fix._attr(expr, fix._SIZE) is not None)

    # the mistake: the nested functions are looked at for their size, not walked into
    def walk(expr):
        if isinstance(expr, relax.Function) and not expr.same_as(func):
            visit(expr)
            return
        relax.analysis.post_order_visit(expr, visit)

    for param in func.params:
        walk(param)
    for block in func.body.blocks:
        for binding in block.bindings:
            walk(binding.value)
    walk(func.body.body)
    return names, any(nested)


def _renamed_always(func, new_name):
    return func.with_attr("global_symbol", new_name)


_Base = fix._WorkspaceThreader._cls


@relax.expr_functor.mutator
class _ChaseOnce(_Base):
    def _callee_takes_workspace(self, op):
        if isinstance(op, relax.Var) and self.lookup_binding(op) is not None:
            op = self.lookup_binding(op)  # the mistake: `if`, not `while`
        if isinstance(op, tvm.ir.GlobalVar):
            return any(op.same_as(gv) for gv in self.gvar_map.values())
        if isinstance(op, relax.Function) and len(op.params) > 0:
            return any(op.params[-1].same_as(p) for p in self.ws_params)
        return False


@relax.expr_functor.mutator
class _ExternalNotInherited(_Base):
    # the innermost external function enclosing a function is not inherited
    visit_function_ = _blind_external_not_inherited(_Base.visit_function_)


PATCHES = {
    "blind2-one-sweep": {"_functions_taking_workspace": _one_sweep},
    "blind2-toplevel-sizes": {"_sizes": _module_level_sizes},
    "blind2-usage-skips-nested": {"_usage": _usage_own_body},
    "blind2-var-chase-once": {"_WorkspaceThreader": _ChaseOnce},
    "blind2-alloc-in-dataflow": {"_allocated_at_entry": _blind_allocated_in_first_block},
    "blind2-private-gets-symbol": {"_renamed": _renamed_always},
    "blind2-external-not-inherited": {"_WorkspaceThreader": _ExternalNotInherited},
}
