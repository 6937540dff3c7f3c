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
"""Blind round 6: wrong fixes of WebGPU's refusal of a kernel's view at an address, each the
reference fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind6-wva-first-kernel-only": "first_refusal looks at the module's first kernel only: a "
    "view at an address in a second kernel keeps the TypeError",
    "blind6-wva-any-call-names": "names_storage accepts any Call as data (buffer_data is a call): "
    "address_of is one too, so the view is not refused and the TypeError stays",
    "blind6-wva-scope-check-ignored": "the wrapper converts only the TypeError: a shared view at "
    "an address, which stops at CodeGenC's storage-scope InternalError first, keeps it",
    "blind6-wva-last-view": "refusal_in keeps walking and reports the last refused view of the "
    "kernel, not the first one the generator stops at",
    "blind6-wva-params-only-named": "only the kernel's parameters count as named storage: a view "
    "of a workgroup allocation is taken as the refused one, whose scope error is not what was "
    "raised, so the TypeError of the real view at an address stays",
    "blind6-wva-let-resolved": "a let-bound pointer is followed to its value: a view over a "
    "pointer a T.let binds to address_of (which compiles) is named as the refused view",
}

UNSEEN = {
    "blind6-wva-last-view": (
        "a step of the Python stand-in only: it names the refused view by searching the IR "
        "after the released generator fails; the C++ refuses the view its own walk meets first "
        "(the source build names the first of two views, and a view over a let-bound pointer "
        "compiles there), so only the named view could differ"
    ),
    "blind6-wva-let-resolved": (
        "a step of the Python stand-in only: it names the refused view by searching the IR "
        "after the released generator fails; the C++ refuses the view its own walk meets first "
        "(the source build names the first of two views, and a view over a let-bound pointer "
        "compiles there), so only the named view could differ"
    ),
}

EDITS = {
    "blind6-wva-first-kernel-only": [
        (
            "            if found:\n                return found[0]\n",
            "            return found[0] if found else None\n",
        )
    ],
    "blind6-wva-any-call-names": [
        ("if isinstance(data, ir.Var):", "if isinstance(data, ir.Var | ir.Call):")
    ],
    "blind6-wva-scope-check-ignored": [
        (
            "        scope = scope_of(view)\n"
            '        return tvm.error.InternalError if scope not in ("", "global") else TypeError',
            "        return TypeError",
        ),
        ("        return ValueError\n", "        return TypeError\n"),
    ],
    "blind6-wva-last-view": [
        ("        if found:\n            return WalkResult.SKIP\n", ""),
        ("found.append(view)", "found[:] = [view]"),
    ],
    "blind6-wva-params-only-named": [
        (
            "            found = refusal_in(func)\n",
            "            params = {p.__chandle__() for p in func.params}\n\n"
            "            def names(data, params=params):\n"
            "                return isinstance(data, ir.Var) and data.__chandle__() in params\n\n"
            "            found = refusal_in(func, names)\n",
        )
    ],
    "blind6-wva-let-resolved": [
        (
            "            found = refusal_in(func)\n",
            "            lets = {}\n\n"
            "            def collect(node):\n"
            "                if isinstance(node, ir.Bind):\n"
            "                    lets[node.var.__chandle__()] = node.value\n"
            "                return WalkResult.ADVANCE\n\n"
            '            walk(func.body, collect, order="pre")\n\n'
            "            def names(data, lets=lets):\n"
            "                if isinstance(data, ir.Var) and data.__chandle__() in lets:\n"
            "                    data = lets[data.__chandle__()]\n"
            "                return names_storage(data)\n\n"
            "            found = refusal_in(func, names)\n",
        )
    ],
}
