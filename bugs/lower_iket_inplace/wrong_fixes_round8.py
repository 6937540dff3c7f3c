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
"""Blind round 8 (blind8d): wrong fixes of LowerIket (patches/0010), each the reference fix's
text with one step of the C++ change made wrongly. The reference fix's ``run`` models the C++
fix: the instrumenting branch on a copy of the input, the stripping loop over a handle of the
function map writing each function into a copy. Demos: demos_round8.py and
demos_round8_tirx.py."""

WRONG_FIXES = {
    "blind8-handle-without-cow": "the loop iterates a handle of the map but writes "
    "module->Update, not module.CopyOnWrite(): every kernel is stripped, in the caller's "
    "module too",
    "blind8-strip-branch-only": "only the stripping branch writes a copy; the instrumenting "
    "branch (IKET enabled) still writes the caller's module",
    "blind8-instrument-branch-only": "only the instrumenting branch writes a copy; the stripping "
    "loop is left as it was (writes the caller's module and the map it iterates)",
    "blind8-handle-written": "the stripping loop writes the stripped function into its handle "
    "of the map (functions.Set), not into the module: the output keeps every mark",
    "blind8-instrument-copy-discarded": "the instrumenting branch writes a local copy "
    "(IRModule copy = module; copy.CopyOnWrite()->Update) and returns module: nothing is "
    "instrumented",
    "blind8-functions-only-copy": "the stripping branch's copy is IRModule(module->functions): "
    "the module's attributes and global infos are lost in the output",
    "blind8-copy-per-write": "each write copies the input afresh (result = module; "
    "result.CopyOnWrite()->Update inside the loop): only the last kernel stripped survives",
}

_WRITE = "                result.update_func(gvar, lowered)"

EDITS = {
    "blind8-handle-without-cow": [
        (
            "    result = mod.clone()\n    for gvar, func in mod.functions.items():",
            "    result = mod  # written through operator->: the caller's module\n"
            "    for gvar, func in dict(mod.functions.items()).items():",
        )
    ],
    "blind8-strip-branch-only": [
        (
            "        return _input_copy.run(inner, mod)\n    result = mod.clone()",
            "        return inner(mod)\n    result = mod.clone()",
        )
    ],
    "blind8-instrument-branch-only": [
        (
            "    result = mod.clone()\n"
            "    for gvar, func in mod.functions.items():\n"
            "        if isinstance(func, ir.PrimFunc):\n"
            "            lowered = alone(inner, mod, gvar, func)\n"
            "            if not lowered.same_as(func):\n"
            "                result.update_func(gvar, lowered)\n"
            "    return result",
            "    return inner(mod)",
        )
    ],
    "blind8-handle-written": [
        (_WRITE, "                pass  # functions.Set(gvar, lowered): the handle, not the module")
    ],
    "blind8-instrument-copy-discarded": [
        (
            "        return _input_copy.run(inner, mod)\n    result = mod.clone()",
            "        _input_copy.run(inner, mod)\n        return mod\n    result = mod.clone()",
        )
    ],
    "blind8-functions-only-copy": [
        ("    result = mod.clone()\n", "    result = mod.clone()\n    copied = False\n"),
        (
            _WRITE,
            "                if not copied:  # the first write: IRModule(module->functions)\n"
            "                    result, copied = type(mod)(dict(result.functions.items())), True\n"
            + _WRITE,
        ),
    ],
    "blind8-copy-per-write": [
        (_WRITE, "                result = mod.clone()\n" + _WRITE),
    ],
}
