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
"""Blind round 5: wrong fixes of WebGPU's refusal of a kernel's view at an address, each the
reference fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind5-skips-if-branches": (
        "the search for the refused view does not descend into the branches of an if: a view "
        "declared under a condition keeps the released error"
    ),
    "blind5-first-kernel-only": (
        "only the module's first kernel is searched: a view at an address in a second kernel "
        "keeps the released error"
    ),
    "blind5-typeerror-only": (
        "the released error is taken to be the TypeError for every view: a shared view at an "
        "address (whose storage-scope InternalError comes first) keeps the InternalError"
    ),
    "blind5-shared-scope-only": (
        "only a 'shared' view is expected to meet the storage-scope InternalError: a 'local' "
        "view at an address keeps the InternalError"
    ),
    "blind5-element-zero-is-array": (
        "address_of(X[0]) is taken to name X itself: a view at element 0 keeps the released error"
    ),
    "blind5-any-error-converted": (
        "any refusal of a kernel holding a view at an address is turned into the view's "
        "ValueError, without checking it is the view's error: an int64 buffer's own "
        "InternalError is hidden"
    ),
    "blind5-accessed-views-only": (
        "the views are found through the loads and stores that access them: a view declared "
        "at an address and never accessed keeps the released error"
    ),
}

EDITS = {
    "blind5-skips-if-branches": [
        (
            "            return WalkResult.SKIP\n",
            "            return WalkResult.SKIP\n"
            '        if type(node).__name__ in ("IfThenElse", "If"):  # tvm, tvm-tirx\n'
            "            return WalkResult.SKIP\n",
        )
    ],
    "blind5-first-kernel-only": [
        (
            "            if found:\n                return found[0]\n",
            "            return found[0] if found else None\n",
        )
    ],
    # on apache/tvm-tirx the released error stays its own ValueError (the other branch)
    "blind5-typeerror-only": [
        (
            "        scope = scope_of(view)\n"
            '        return tvm.error.InternalError if scope not in ("", "global") else TypeError',
            "        return TypeError",
        )
    ],
    "blind5-shared-scope-only": [
        ('if scope not in ("", "global") else', 'if scope == "shared" else')
    ],
    "blind5-element-zero-is-array": [
        (
            "        return True\n    return (",
            "        return True\n"
            '    op = getattr(data, "op", None)\n'
            "    if isinstance(data, ir.Call) and isinstance(op, ir.Op)"
            ' and op.name == "tirx.address_of":\n'
            '        indices = list(getattr(data.args[0], "indices", []))\n'
            "        if indices and all("
            "isinstance(i, ir.IntImm) and int(i) == 0 for i in indices):\n"
            "            return True\n"
            "    return (",
        )
    ],
    "blind5-any-error-converted": [(" or not isinstance(err, released_error(refused[0]))", "")],
    "blind5-accessed-views-only": [
        (
            "import LINE, WalkResult, ir, scope_of, walk",
            "import LINE, WalkResult, ir, loaded, scope_of, stored, walk",
        ),
        (
            "    found = []\n\n    def visit(node):",
            "    accessed = []\n\n"
            "    def collect(node):\n"
            "        if isinstance(node, ir.LOADS):\n"
            "            accessed.append(loaded(node))\n"
            "        elif isinstance(node, ir.Store):\n"
            "            accessed.append(stored(node))\n"
            "        return WalkResult.ADVANCE\n\n"
            '    walk(func.body, collect, order="pre")\n'
            "    found = []\n\n    def visit(node):",
        ),
        (
            "if view is not None and not names(view[1]):",
            "if (\n"
            "            view is not None\n"
            "            and not names(view[1])\n"
            "            and any(v is not None and view[0].same_as(v) for v in accessed)\n"
            "        ):",
        ),
    ],
}

# no apache/tvm-tirx program tells these apart: there the released error is always the
# generator's own ValueError (no scope-dependent error, no TypeError)
NOT_ON_TVM_TIRX = {
    "blind5-typeerror-only": "tvm-tirx's released error is always its own ValueError",
    "blind5-shared-scope-only": "tvm-tirx's released error is always its own ValueError",
    "blind5-any-error-converted": (
        "tvm-tirx refuses a type WGSL lacks with a RuntimeError, which the wrapper never catches"
    ),
}
