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
"""Round-7 blind wrong fixes of the host-level scalar fix (patches/0002): one mistake each, as
an edit of the text of bugs/host_scalar/reference_fix.py (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind7-count-unchecked": (
        "a kernel load of an array of the host code is by value when its "
        "indices are 0 (element count not checked)"
    ),
    "blind7-lanes-unchecked": (
        "a kernel load of a one-element vector cell is passed by value (lanes not checked)"
    ),
    "blind7-first-extent": (
        "the element count of a host buffer is its first extent, not the product of all"
    ),
    "blind7-view-is-use": (
        "declaring a view of a host buffer on the host counts as a host use of it"
    ),
    "blind7-address-of-by-value": (
        "a kernel's address_of a host cell is treated as a read of its value"
    ),
    "blind7-stack-any-scope": (
        "LowerTVMBuiltin keeps an annotated small buffer on the stack whatever its scope"
    ),
    "blind7-device-id-kept": (
        "LowerTVMBuiltin relocates host memory to kDLCPU but keeps the function's device id"
    ),
    "blind7-any-device-type": (
        "an annotation device_type other than kDLCPU is accepted and lowered as kDLCPU"
    ),
}

# tvm-tirx hands an allocation kept on the stack to LowerTVMBuiltin inside
# T.device_context(1, 0), whose CPU rule still gives a local tensor a kDLCPU workspace: the
# same code as the reference fix's relocation to (kDLCPU, 0).
NOT_ON_TVM_TIRX = {
    "blind7-stack-any-scope": (
        "on tvm-tirx a local cell handed over as CPU memory still gets a (kDLCPU, 0) workspace"
    ),
}

EDITS = {
    "blind7-count-unchecked": [("        and _constant_elements(buffer) == 1\n", "")],
    "blind7-lanes-unchecked": [("dtype.lanes == 1\n        and ", "")],
    "blind7-first-extent": [
        (
            "    for extent in buffer.ty.shape:\n",
            "    for extent in [buffer.ty.shape[0]]:  # the first extent only\n",
        )
    ],
    "blind7-view-is-use": [
        ("    return pointer_operands(data, VIEW_OPERANDS)", "    return [data]")
    ],
    "blind7-address-of-by-value": [
        ('        return "takes the address of"', "        return None")
    ],
    "blind7-stack-any-scope": [('scope_of(buffer) == "global"\n        and ', "")],
    "blind7-device-id-kept": [
        ("    value = annotations[_DEVICE_TYPE]\n", "    return _KDLCPU, None  # not checked\n")
    ],
    "blind7-any-device-type": [
        ("    value = annotations[_DEVICE_TYPE]\n", "    return _KDLCPU, 0  # not checked\n")
    ],
}
