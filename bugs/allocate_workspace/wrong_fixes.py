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

Each one is the reference fix (bugs/allocate_workspace/reference_fix.py) with one step changed,
written as an edit of the reference fix's own text (harness/wrong_fixes.py: EDITS).
"""

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

EDITS = {
    "not-transitive": [
        (
            "    return _callers_closure(funcs, usages, set())",
            "    sized = {name for name, func in funcs.items() if _attr(func, _SIZE) is not None}\n"
            "    callers = {n for n, f in funcs.items() if _takes_workspace(f, sized, usages[n])}\n"
            "    return sized | callers  # no further up",
        )
    ],
    "only-inner": [
        (
            '    """The pass function: see the module docstring for the semantics."""\n',
            '    """The pass function: see the module docstring for the semantics."""\n'
            "    named = dict(mod.functions_items())  # only the report's callee keeps its size\n"
            "    for gv, f in named.items():\n"
            '        if gv.name_hint != "inner" and isinstance(f, relax.Function):\n'
            "            named[gv] = f.without_attr(_SIZE) if _attr(f, _SIZE) else f\n"
            "    mod = tvm.IRModule(named, attrs=mod.attrs)\n",
        )
    ],
    "smallest": [("return max(sizes)", "return min(sizes)")],
    "locals-not-rewritten": [
        (
            "        saved = self.workspace, self.allocations, self.function, self.external\n",
            '        self.depth = getattr(self, "depth", 0) + 1  # 1: a module-level function\n'
            "        saved = self.workspace, self.allocations, self.function, self.external\n",
        ),
        (
            "        self.workspace, self.allocations, self.function, self.external = saved\n",
            "        self.workspace, self.allocations, self.function, self.external = saved\n"
            "        self.depth -= 1\n",
        ),
        (
            "        new = self.gvar_map.get(op.name_hint)\n",
            "        if self.depth > 1:  # inside a local function: not rewritten\n"
            "            return op\n"
            "        new = self.gvar_map.get(op.name_hint)\n",
        ),
    ],
    "strip-only": [
        (
            "    if _attr(func, _SIZE) is not None:\n        return True",
            "    return False  # no function takes the workspace",
        )
    ],
    "drop-global-symbol": [
        (
            '    if _attr(func, "global_symbol") is not None:\n'
            '        return func.with_attr("global_symbol", new_name)\n'
            "    return func",
            '    return func.without_attr("global_symbol")',
        )
    ],
    "every-caller-allocates": [
        (
            "return _is_external(func) and (bool(names & taking) or nested_sized)",
            "return False  # only the sized functions take it",
        )
    ],
    "composite-callers-skipped": [
        (
            "        name, self.module_level = self.module_level, None\n",
            "        name, self.module_level = self.module_level, None\n"
            "        if name is not None:\n"
            '            self.in_composite = _attr(op, "Composite") is not None\n',
        ),
        (
            "        new = self.gvar_map.get(op.name_hint)\n",
            "        if self.in_composite:  # a module-level Composite function: not rewritten\n"
            "            return op\n"
            "        new = self.gvar_map.get(op.name_hint)\n",
        ),
    ],
    "private-gets-global-symbol": [
        ('if _attr(func, "global_symbol") is not None:', "if True:  # also when it had none")
    ],
    "alloc-per-call": [
        (
            "        if self.workspace is None:\n",
            "        if self.workspace is not None and not any(\n"
            "            self.workspace.same_as(p) for p in self.ws_params\n"
            "        ):\n"
            "            self.workspace = None  # forget the previous call's allocation\n"
            "        if self.workspace is None:\n",
        )
    ],
    "lazy-allocation": [
        ("if self.external is not None:", "if False:  # never refused"),
        (
            '            self.workspace = relax.Var("workspace_main", self.ws_ty)\n'
            "            self.allocations.append((self.workspace, self.builder_.normalize(alloc)))",
            "            # emitted into whatever block the call is in\n"
            '            self.workspace = self.builder_.emit(alloc, "workspace_main")',
        ),
    ],
    "local-sized-missed": [("(bool(names & taking) or nested_sized)", "bool(names & taking)")],
    "allocates-inside-external": [
        ("(bool(names & taking) or nested_sized)", "bool(names & taking)"),
        ("if self.external is not None:", "if False:  # code inside external code allocates too"),
    ],
    "module-level-sizes-only": [
        (
            "relax.analysis.post_order_visit(func, visit)\n    return sizes",
            "visit(func)  # the local functions are not visited\n    return sizes",
        )
    ],
    "bound-var-call-missed": [
        (
            "        while isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
            "        if isinstance(op, relax.Var) and isinstance(\n"
            "            self.lookup_binding(op), tvm.ir.GlobalVar\n"
            "        ):\n"
            "            return False  # a variable bound to a GlobalVar is not followed\n"
            "        while isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
        )
    ],
    "one-binding-step": [
        (
            "while isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
            "if isinstance(op, relax.Var) and self.lookup_binding(op) is not None:",
        )
    ],
    "equal-functions-merged": [
        (
            "    if not any(gvar.same_as(other) for other in added):\n        return gvar",
            "    return gvar",
        )
    ],
    "zero-size-not-taker": [
        (
            "    if _attr(func, _SIZE) is not None:\n        return True",
            "    if _attr(func, _SIZE):  # 0 reads as no WorkspaceSize\n        return True",
        )
    ],
    "zero-size-allocated": [("return any(sizes)", "return bool(sizes)")],
    "blind-size-sum": [("return max(sizes)", "return sum(sizes)")],
    "blind-alloc-in-first-dataflow": [
        (
            "    if blocks and not isinstance(blocks[0], relax.DataflowBlock):\n"
            "        blocks[0] = relax.BindingBlock([*bindings, *blocks[0].bindings])",
            "    if blocks:\n        blocks[0] = type(blocks[0])([*bindings, *blocks[0].bindings])",
        )
    ],
    "blind-codegen-only-external": [('("Codegen", "Composite")', '("Codegen",)')],
    "blind-one-sweep": [("                grew = True\n", "                grew = False\n")],
    "blind-old-gvars-kept": [
        (
            "    result = builder.get()\n    for name in taking:\n        del result[name]\n",
            "    result = builder.get()  # the old GlobalVars of the renamed functions stay\n",
        )
    ],
    "blind-local-outside-external": [
        (
            "        if _is_external(op):\n            self.external = self.function\n",
            "        self.external = self.function if _is_external(op) else None\n",
        )
    ],
    "blind-usage-not-nested": [
        (
            "    return names, any(nested)",
            "    names.clear()  # the references are collected again, local functions left out\n"
            "    for block in func.body.blocks:\n"
            "        for binding in block.bindings:\n"
            "            if not isinstance(binding.value, relax.Function):\n"
            "                relax.analysis.post_order_visit(binding.value, visit)\n"
            "    relax.analysis.post_order_visit(func.body.body, visit)\n"
            "    return names, any(nested)",
        )
    ],
}
