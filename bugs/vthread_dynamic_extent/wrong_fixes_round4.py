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
"""Blind round 4: wrong fixes of the non-constant vthread extent report (patch 0013).

Each is the text of the reference fix (reference_fix.py) with one step changed, a mistake an
engineer implementing patch 0013 could make (harness/wrong_fixes.py: EDITS);
bugs/vthread_dynamic_extent/demos.py shows each on a program. apache/tvm only (apache/tvm-tirx
refuses the program on its own).
"""

WRONG_FIXES = {
    "blind4-vthread-tags-only": "only tags starting with 'vthread' are checked: a cthread "
    "(also a virtual_thread attribute) with a non-constant extent still reaches the null cast",
    "blind4-check-before-body": "the extent is checked before the body is visited: of nested "
    "non-constant virtual threads the outer one is named, not the inner one the pass meets first",
    "blind4-first-function-only": "only the module's first PrimFunc is checked: a second "
    "function's non-constant extent still crashes the pass",
    "blind4-vars-only": "only an extent that is a variable is refused: an expression or a "
    "buffer load (L[0]) still reaches the null cast",
    "blind4-int32-only": "a constant extent must be an int32 IntImm: a valid int64 constant "
    "extent is refused",
    "blind4-pass-name": "the checking pass is registered as 'InjectVirtualThread', not "
    "'s_tir.InjectVirtualThread': disabled_pass no longer skips it",
    "blind4-thread-extent-too": "the attribute key is not checked: a thread launch "
    "(thread_extent) of a dynamic extent, which is valid, is refused",
}

EDITS = {
    "blind4-vthread-tags-only": [
        (
            "    if attr.attr_key != ATTR:\n        return False\n",
            "    if attr.attr_key != ATTR:\n        return False\n"
            "    if isinstance(attr.node, tirx.IterVar) and not "
            'attr.node.thread_tag.startswith("vthread"):\n'
            "        return False\n",
        )
    ],
    "blind4-check-before-body": [('order="post"', 'order="pre"')],
    "blind4-first-function-only": [
        (
            "        if found:\n            return found[0]",
            "        return found[0] if found else None  # the first PrimFunc only",
        )
    ],
    "blind4-vars-only": [
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            "or isinstance(attr.value, tirx.Var)",
        )
    ],
    "blind4-int32-only": [
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            'or not (isinstance(attr.value, tirx.IntImm) and str(attr.value.ty) == "int32")',
        )
    ],
    "blind4-pass-name": [('name="s_tir.InjectVirtualThread"', 'name="InjectVirtualThread"')],
    "blind4-thread-extent-too": [
        (
            "if attr.attr_key != ATTR:",
            'if attr.attr_key not in (ATTR, "thread_extent"):',
        )
    ],
}

# a wrong fix no test can see (docs/proof.md, the fourth round)
UNSEEN = {
    "blind4-first-function-only": "as round 3's blind3-first-function-only: wherever it differs "
    "from the fix the released pass segfaults, so an in-process test dies instead of failing "
    "(proof: the child-process test's [second-function] case); the C++ check runs on every "
    "function",
    "blind4-pass-name": "as round 3's blind3-unnamed-pass: a step of the Python stand-in only "
    "(its wrapping pass's name); patch 0013 changes the visitor, not the pass's registration "
    "(proof: test_pass_context_treats_the_pass_as_released[disabled-vthread])",
    "blind4-vars-only": "wherever it differs from the fix (an extent that is a load or an "
    "expression) the released pass segfaults, so the test process dies instead of failing "
    "(proof: the child-process test's cases)",
}
