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
"""Blind round 5: wrong fixes of InjectVirtualThread's extent check (patch 0013).

Each is the reference fix's text with one step of its test of a virtual thread's extent, or of
its walk to it, changed (harness/wrong_fixes.py: EDITS); an extent it lets through reaches the
released pass's null cast (SIGSEGV), and a constant it refuses is a valid program rejected."""

WRONG_FIXES = {
    "blind5-vthread-tag-only": "tests the extent only where the tag starts with vthread "
    "(inside the allow_share branch): a cthread of non-constant extent still crashes",
    "blind5-outermost-first": "finds the offending attribute before visiting its body "
    "(pre-order): of nested non-constant virtual threads the outer one is named, not the "
    "inner one the mutator reaches first",
    "blind5-first-attr-only": "tests only the first virtual thread attribute of a function "
    "(the outermost): a non-constant virtual thread nested in a constant one still crashes",
    "blind5-first-function-only": "checks the module's first PrimFunc only: a non-constant "
    "extent in a second function still crashes",
    "blind5-var-only": "refuses an extent only when it is a Var (op->value.as<VarNode>()): an "
    "expression or a buffer load as extent still crashes",
    "blind5-int32-only": "accepts only an int32 IntImm (extent->dtype == int32): a valid "
    "constant extent of type int64 is refused",
    "blind5-dom-extent": "tests the IterVar's dom extent instead of the attribute's value: an "
    "attribute whose dom is constant but whose value is not still crashes",
}

UNSEEN = {
    "blind5-first-function-only": "as round 3's blind3-first-function-only: wherever it "
    "differs from the fix the released pass segfaults, so an in-process test dies instead of "
    "failing (proof: the child-process test's [second-function] case); the C++ check runs on "
    "every function",
    "blind5-var-only": "as round 4's blind4-vars-only: wherever it differs from the fix (an "
    "extent that is a load or an expression) the released pass segfaults in the test process",
    "blind5-dom-extent": "differs only where a virtual thread's IterVar domain disagrees with "
    "its attribute's value; TVMScript's launch_thread and TVM's lowering give the IterVar the "
    "domain [0, value), so no well-formed program tells the two apart",
}

EDITS = {
    "blind5-vthread-tag-only": [
        (
            "    if attr.attr_key != ATTR:\n        return False\n",
            "    if attr.attr_key != ATTR:\n        return False\n"
            "    if isinstance(attr.node, tirx.IterVar) and not "
            'str(attr.node.thread_tag).startswith("vthread"):\n'
            "        return False\n",
        )
    ],
    "blind5-outermost-first": [('order="post"', 'order="pre"')],
    "blind5-first-attr-only": [
        (
            "if not found and stops(attr):",
            "if not found and attr.attr_key == ATTR and isinstance(attr.node, tirx.IterVar):",
        ),
        ('order="post"', 'order="pre"'),
        ("        if found:\n", "        if found and stops(found[0]):\n"),
    ],
    "blind5-first-function-only": [
        (
            "        if found:\n            return found[0]",
            "        return found[0] if found else None  # the first PrimFunc only",
        )
    ],
    "blind5-var-only": [
        (
            "return not isinstance(attr.node, tirx.IterVar) or not isinstance(attr.value, "
            "tirx.IntImm)",
            "return isinstance(attr.node, tirx.IterVar) and isinstance(attr.value, tirx.Var)",
        )
    ],
    "blind5-int32-only": [
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            'or not (isinstance(attr.value, tirx.IntImm) and str(attr.value.ty) == "int32")',
        )
    ],
    "blind5-dom-extent": [
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            "or attr.node.dom is None or not isinstance(attr.node.dom.extent, tirx.IntImm)",
        )
    ],
}
