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
"""Blind round 6: wrong fixes of vthread_dynamic_extent (patch 0013, InjectVirtualThread), each
the reference fix's text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind6-vt-vthread-tag-only": (
        "the extent is checked only for tags starting with 'vthread' (the allow_share test "
        "reused): a cthread with a non-constant extent still crashes the pass"
    ),
    "blind6-vt-load-extent-only": (
        "only an extent read from a buffer (the issue's L[0]) is refused: a parameter as "
        "extent still reaches the null cast"
    ),
    "blind6-vt-first-function-only": (
        "only the module's first PrimFunc is checked: a non-constant extent in the second "
        "function still crashes the pass"
    ),
    "blind6-vt-top-level-only": (
        "only the attribute chain at the top of a body is checked, not the virtual threads "
        "nested in a loop, if or sequence"
    ),
    "blind6-vt-int32-only": (
        "a constant extent is accepted only as an int32 IntImm: a valid int64 constant extent "
        "is refused"
    ),
    "blind6-vt-simplified-extent": (
        "the extent is simplified before the test: an expression that folds to a constant "
        "(n - n + 2) is accepted, and the released pass still dies on its null cast"
    ),
}

UNSEEN = {
    "blind6-vt-first-function-only": (
        "as round 3's blind3-first-function-only: wherever it differs from the fix the released "
        "pass segfaults, so an in-process test dies instead of failing (proof: the child-process "
        "test's [second-function] case); the C++ check runs on every function"
    ),
    "blind6-vt-top-level-only": (
        "wherever it differs from the fix (a virtual thread below another statement) the "
        "released pass segfaults in the test process"
    ),
    "blind6-vt-simplified-extent": (
        "wherever it differs from the fix (an extent that simplifies to a constant, n - n + 2) "
        "the released pass segfaults in the test process (proof: the child-process test's "
        "[vthread-simplifies-to-constant] case)"
    ),
    "blind6-vt-load-extent-only": (
        "as round 4's blind4-vars-only: wherever it differs from the fix (an extent that is a "
        "variable or an expression) the released pass segfaults in the test process"
    ),
}

EDITS = {
    "blind6-vt-vthread-tag-only": [
        (
            "    if attr.attr_key != ATTR:\n        return False\n",
            "    if attr.attr_key != ATTR:\n        return False\n"
            "    if isinstance(attr.node, tirx.IterVar) and not "
            'str(attr.node.thread_tag).startswith("vthread"):\n'
            "        return False\n",
        )
    ],
    "blind6-vt-load-extent-only": [
        (
            "from tvm import tirx",
            "from harness.tvm_line import ir\nfrom tvm import tirx",
        ),
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            "or isinstance(attr.value, ir.LOADS)",
        ),
    ],
    "blind6-vt-first-function-only": [
        (
            "        if found:\n            return found[0]",
            "        return found[0] if found else None  # the first PrimFunc only",
        )
    ],
    "blind6-vt-top-level-only": [
        (
            '        tvm_ffi.structural_walk(func.body, [(tirx.AttrStmt, visit)], order="post")\n',
            "        node = func.body\n"
            "        while isinstance(node, tirx.AttrStmt):  # the chain at the top of the body\n"
            "            if stops(node):\n"
            "                found.insert(0, node)  # the innermost first, as in post-order\n"
            "            node = node.body\n",
        )
    ],
    "blind6-vt-int32-only": [
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            'or not (isinstance(attr.value, tirx.IntImm) and str(attr.value.ty) == "int32")',
        )
    ],
    "blind6-vt-simplified-extent": [
        ("from tvm import tirx", "from tvm import sym, tirx"),
        (
            "or not isinstance(attr.value, tirx.IntImm)",
            "or not isinstance(sym.Analyzer().simplify(attr.value), tirx.IntImm)",
        ),
    ],
}
