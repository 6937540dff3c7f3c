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
"""Blind round 4: wrong fixes of the WebGPU view-at-an-address report (patch 0015).

Each is the text of the reference fix (reference_fix.py) with one step changed, a mistake an
engineer implementing patch 0015 could make (harness/wrong_fixes.py: EDITS);
bugs/webgpu_view_at_address/demos.py (apache/tvm) and demos_tirx.py (apache/tvm-tirx) show
each on a program.
"""

WRONG_FIXES = {
    "blind4-var-only": "only a variable counts as storage the kernel names, not buffer_data "
    "of one: a valid view over A.data ahead of the address view is named instead",
    "blind4-params-only": "only a kernel parameter (or its data) counts as named storage, not "
    "an allocation or another view: a valid view of a shared allocation is named instead",
    "blind4-scope-ignored": "the released error is taken to be the TypeError whatever the "
    "view's scope: a shared view at an address keeps the storage-scope InternalError",
    "blind4-any-refusal": "the released error is not matched at all: a kernel refused earlier "
    "for another reason (a float64 buffer) is reported as the view's ValueError",
    "blind4-first-kernel-only": "only the module's first kernel is searched: a view at an "
    "address in a second kernel keeps the released error",
    "blind4-address-of-only": "only data that is address_of(...) is refused: a view over other "
    "pointer arithmetic (ptr_byte_offset of A.data) keeps the released error",
}

# tvm-tirx: the wrong fixes no program of that line tells apart from the reference fix
NOT_ON_TVM_TIRX = {
    "blind4-scope-ignored": "tvm-tirx's generator raises its own ValueError at every view, "
    "whatever its scope (released_error is ValueError there)",
    "blind4-any-refusal": "tvm-tirx raises RuntimeError for the other refusals (a type it "
    "lacks), which neither fix catches: both re-raise it",
}

_NAMES = "    names = names or names_storage"

EDITS = {
    "blind4-var-only": [(_NAMES, "    names = lambda data: isinstance(data, ir.Var)")],
    "blind4-params-only": [
        (
            _NAMES,
            "    params = list(func.params)\n"
            "    names = lambda data: names_storage(data) and any(\n"
            "        (data if isinstance(data, ir.Var) else data.args[0]).same_as(p)\n"
            "        for p in params\n"
            "    )",
        )
    ],
    "blind4-scope-ignored": [
        (
            'return tvm.error.InternalError if scope not in ("", "global") else TypeError',
            "return TypeError",
        )
    ],
    "blind4-any-refusal": [
        (
            "if refused is None or not isinstance(err, released_error(refused[0])):",
            "if refused is None:",
        )
    ],
    "blind4-first-kernel-only": [
        (
            "            if found:\n                return found[0]",
            "            return found[0] if found else None",
        )
    ],
    "blind4-address-of-only": [
        (
            _NAMES,
            "    names = lambda data: not (\n"
            "        isinstance(data, ir.Call)\n"
            "        and isinstance(data.op, ir.Op)\n"
            '        and data.op.name == "tirx.address_of"\n'
            "    )",
        )
    ],
}
