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
"""Third blind round: wrong fixes of vthread_dynamic_extent (InjectVirtualThread's check).

Each is the text of ``bugs/vthread_dynamic_extent/reference_fix.py`` with one step changed
(harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind3-opt-level-2": "the checking pass is declared at opt_level 2 instead of the released "
    "pass's 0: compiled at opt_level 0 or 1 the Sequential skips it, vthreads are never injected "
    "and a valid kernel fails to compile",
    "blind3-unnamed-pass": "the checking pass is built without the released pass's name (it is "
    "called `_checked`): disabled_pass=['s_tir.InjectVirtualThread'] no longer disables the "
    "injection",
    "blind3-first-function-only": "the check looks at the module's first PrimFunc only: a "
    "non-constant extent in a second function still crashes the pass (SIGSEGV)",
    "blind3-vthread-tag-only": "virtual threads are recognised by the tag `vthread*` (the "
    "allow_share test) instead of the attribute key: a non-constant cthread extent still crashes "
    "the pass",
    "blind3-var-or-load-only": "only an extent that is a variable or a buffer load is refused; any "
    "other non-constant expression (n * 2) still crashes the pass",
    "blind3-pre-order": "the attributes are searched in pre-order: of nested non-constant virtual "
    "threads the outer one is named, not the inner one the C++ mutator reaches first",
}

EDITS = {
    "blind3-opt-level-2": [("module_pass(opt_level=0", "module_pass(opt_level=2")],
    "blind3-unnamed-pass": [(', name="s_tir.InjectVirtualThread")', ")")],
    "blind3-first-function-only": [
        (
            "        if found:\n            return found[0]",
            "        return found[0] if found else None  # the first PrimFunc only",
        )
    ],
    "blind3-vthread-tag-only": [
        (
            "    if attr.attr_key != ATTR:\n        return False\n"
            "    return not isinstance(attr.node, tirx.IterVar) or not isinstance(attr.value, "
            "tirx.IntImm)",
            "    node = attr.node\n"
            "    if not (isinstance(node, tirx.IterVar) and "
            'str(node.thread_tag).startswith("vthread")):\n'
            "        return False\n"
            "    return not isinstance(attr.value, tirx.IntImm)",
        )
    ],
    "blind3-var-or-load-only": [
        (
            "from tvm import tirx",
            "from harness.tvm_line import ir\nfrom tvm import tirx",
        ),
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            "or isinstance(attr.value, (tirx.Var, *ir.LOADS))",
        ),
    ],
    "blind3-pre-order": [('order="post"', 'order="pre"')],
}

# the wrong fixes no test can see (scripts/wrong_fixes.py does not run them; docs/proof.md
# names them)
UNSEEN = {
    "blind3-opt-level-2": "a step of the Python stand-in only (its wrapping pass's opt_level): "
    "patch 0013 changes the visitor, not the pass's registration (proof: "
    "test_pass_context_treats_the_pass_as_released[opt-level-1-vthread])",
    "blind3-unnamed-pass": "a step of the Python stand-in only (its wrapping pass's name), as "
    "above (proof: test_pass_context_treats_the_pass_as_released[disabled-vthread])",
    "blind3-first-function-only": "wherever it differs from the fix the released pass "
    "segfaults, so an in-process test dies instead of failing (proof: the child-process "
    "test's [second-function] case); the C++ check runs on every function",
}
