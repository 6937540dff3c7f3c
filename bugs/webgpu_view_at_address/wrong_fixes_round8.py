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
"""Blind round 8 (blind8c): wrong fixes of the WebGPU view-at-an-address report (patch 0015).

Each is the reference fix's text with one step of CodeGenWebGPU::VisitStmt_(DeclBufferNode)
changed: the buffer_data branch left out or taken without its op test, the refusal narrowed
to address_of data or to global views, the error thrown as a TypeError, and the check placed
after CodeGenC::VisitStmt_. bugs/webgpu_view_at_address/demos_round8.py and
demos_round8_tirx.py show each.
"""

WRONG_FIXES = {
    "blind8-var-only": "only a Var is taken as named storage: the buffer_data(A) branch is left "
    "out, so a view over A.data is refused (before the view at an address)",
    "blind8-any-call": "the buffer_data branch takes any one-argument call of a Var "
    "(call->op.same_as(builtin::buffer_data()) left out): reinterpret(handle, n) passes",
    "blind8-address-of-only": "the refusal tests for address_of data only: a view over "
    "another pointer expression (handle_add_byte_offset) reaches CodeGenC's TypeError",
    "blind8-global-only": "the refusal is made for global views only: a shared view at an "
    "address stops at CodeGenC's storage-scope check as before",
    "blind8-type-error": "TVM_FFI_THROW(TypeError) instead of ValueError: the refusal's kind "
    "is still the internal one's",
    "blind8-check-after-visit": "the check comes after CodeGenC::VisitStmt_(op), whose "
    "DeclBuffer path stops first: the released error stands",
}

EDITS = {
    "blind8-var-only": [
        (
            "    return (\n"
            "        isinstance(data, ir.Call)\n"
            "        and isinstance(data.op, ir.Op)\n"
            "        and data.op.name == DATA_OF\n"
            "        and len(data.args) == 1\n"
            "        and isinstance(data.args[0], ir.Var)\n"
            "    )\n",
            "    return False\n",
        )
    ],
    "blind8-any-call": [
        (
            "        and data.op.name == DATA_OF\n",
            "",
        )
    ],
    "blind8-address-of-only": [
        (
            "    if isinstance(data, ir.Var):\n        return True\n",
            "    if isinstance(data, ir.Var):\n        return True\n"
            "    if not (\n"
            "        isinstance(data, ir.Call)\n"
            "        and isinstance(data.op, ir.Op)\n"
            '        and data.op.name == "tirx.address_of"\n'
            "    ):\n"
            "        return True\n",
        )
    ],
    "blind8-global-only": [
        (
            "            if refused is None or not isinstance(err, released_error(refused[0])):",
            "            if (\n"
            "                refused is None\n"
            '                or scope_of(refused[0]) not in ("", "global")\n'
            "                or not isinstance(err, released_error(refused[0]))\n"
            "            ):",
        )
    ],
    "blind8-type-error": [
        (
            "            raise ValueError(refusal_message(*refused)) from None",
            "            raise TypeError(refusal_message(*refused)) from None",
        )
    ],
    "blind8-check-after-visit": [
        (
            "            if refused is None or not isinstance(err, released_error(refused[0])):",
            "            if True:  # CodeGenC's DeclBuffer path ran first",
        )
    ],
}
