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
"""Blind round 9 (blind9c): wrong fixes of patch 0015 (CodeGenWebGPU refuses a kernel's view
at an address), each the reference fix's text with one step of the C++ changed."""

WRONG_FIXES = {
    "blind9-buffer-data-refused": (
        "the buffer_data(var) branch is missed: only a bare Var counts as named storage, so a "
        "view over A.data (which compiled) is refused"
    ),
    "blind9-index-zero-names-storage": (
        "address_of(A[0]) is taken for A itself (the same address): such a view goes on to "
        "CodeGenC and stops at the released internal error"
    ),
    "blind9-global-scope-only": (
        "the check sits after CodeGenC's storage-scope check: a shared view at an address "
        "still stops at the scope ICHECK"
    ),
    "blind9-icheck": (
        "TVM_FFI_ICHECK(source && var_idmap_.count(source)) instead of "
        "TVM_FFI_THROW(ValueError): an internal error, not a diagnostic"
    ),
    "blind9-message-arguments-swapped": (
        "the message streams op->data and the view's name in swapped order: 'cannot declare "
        "buffer <data> over <view>'"
    ),
    "blind9-address-of-only": (
        "only an address_of data is refused: any other pointer expression (handle_add_byte_offset) "
        "goes on to CodeGenC and the released internal error"
    ),
}

_PRECHECK = (
    "    def build(mod, target):\n        try:\n",
    "    def build(mod, target):\n"
    "        refused = first_refusal(mod)\n"
    "        if refused is not None:\n"
    "            raise ValueError(refusal_message(*refused))\n"
    "        try:\n",
)

EDITS = {
    "blind9-buffer-data-refused": [
        (
            "    return (\n        isinstance(data, ir.Call)",
            "    return False and (\n        isinstance(data, ir.Call)",
        ),
        _PRECHECK,
    ],
    "blind9-index-zero-names-storage": [
        (
            "    if isinstance(data, ir.Var):\n        return True\n",
            "    if isinstance(data, ir.Var):\n        return True\n"
            '    if isinstance(data, ir.Call) and data.op.name == "tirx.address_of":\n'
            "        index = data.args[0].indices\n"
            '        return all(getattr(i, "value", None) == 0 for i in index)\n',
        )
    ],
    "blind9-global-scope-only": [
        ("REFUSED = (TypeError, tvm.error.InternalError)", "REFUSED = (TypeError,)")
    ],
    "blind9-icheck": [
        (
            "raise ValueError(refusal_message(*refused)) from None",
            "raise REFUSED[-1](\n"
            '                "Check failed: (source && var_idmap_.count(source)) is false"\n'
            "            ) from None",
        )
    ],
    "blind9-message-arguments-swapped": [
        (
            'f"CodeGenWebGPU: cannot declare {VIEW} {view.name} over {data}: WGSL',
            'f"CodeGenWebGPU: cannot declare {VIEW} {data} over {view.name}: WGSL',
        )
    ],
    "blind9-address-of-only": [
        (
            "    if isinstance(data, ir.Var):\n        return True\n",
            "    if isinstance(data, ir.Var) or not (\n"
            '        isinstance(data, ir.Call) and data.op.name == "tirx.address_of"\n'
            "    ):\n        return True\n",
        )
    ],
}

NOT_ON_TVM_TIRX = {
    "blind9-global-scope-only": (
        "tvm-tirx's code generator checks a view's storage before any storage-scope check: "
        "a shared view at an address meets the same refusal under both"
    ),
}
