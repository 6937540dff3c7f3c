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
one step of bugs/allocate_workspace/reference_fix.py, written as an edit of its text
(harness/wrong_fixes.py: EDITS)."""

from bugs.allocate_workspace.wrong_fixes import EDITS as FIRST

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

# a step an earlier round proposed too is that round's edit (FIRST: wrong_fixes.py)
EDITS = {
    "blind2-one-sweep": [
        (
            "    return _callers_closure(funcs, usages, set())",
            "    sized = {name for name, func in funcs.items() if _attr(func, _SIZE) is not None}\n"
            "    return _callers_closure(funcs, usages, sized)",
        ),
        ("                grew = True\n", "                grew = False\n"),
    ],
    "blind2-toplevel-sizes": FIRST["module-level-sizes-only"],
    "blind2-usage-skips-nested": [
        (
            "    relax.analysis.post_order_visit(func, visit)\n    return names",
            "    def walk(expr):  # a local function is looked at for its size, not walked into\n"
            "        if isinstance(expr, relax.Function):\n"
            "            visit(expr)\n"
            "        else:\n"
            "            relax.analysis.post_order_visit(expr, visit)\n\n"
            "    for param in func.params:\n"
            "        walk(param)\n"
            "    for block in func.body.blocks:\n"
            "        for binding in block.bindings:\n"
            "            walk(binding.value)\n"
            "    walk(func.body.body)\n"
            "    return names",
        )
    ],
    "blind2-var-chase-once": FIRST["one-binding-step"],
    "blind2-alloc-in-dataflow": FIRST["blind-alloc-in-first-dataflow"],
    "blind2-private-gets-symbol": FIRST["private-gets-global-symbol"],
    "blind2-external-not-inherited": FIRST["blind-local-outside-external"],
}
