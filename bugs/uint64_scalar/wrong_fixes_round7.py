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
"""Blind round 7 wrong fixes of the uint64 kernel scalar fix (patch 0007): each an OpenCL runtime
built with pack_args.h changed by one mistaken variant of the patch's hunk."""

from bugs.uint64_scalar import reference_fix as fix
from bugs.uint64_scalar.wrong_fixes import select_variant
from harness.reference_fixes import opencl_runtime

NEEDS_OPENCL = True

WRONG_FIXES = {
    "blind7-u64-uint32-code": (
        "uint64 maps to INT64_TO_UINT32 (the uint code) instead of "
        "INT64_TO_INT64: the value is cut to its low 32 bits / passed in a 4-byte slot"
    ),
    "blind7-u64-int32-code": (
        "uint64 maps to INT64_TO_INT32 instead of INT64_TO_INT64 (copied the line below it)"
    ),
    "blind7-u64-float32-code": (
        "uint64 maps to FLOAT64_TO_FLOAT32: the slot's bits are read as a "
        "double and narrowed to a float"
    ),
    "blind7-u64-tensormap-code": (
        "uint64 maps to HANDLE_TO_TENSORMAP (the code that passes the "
        "slot's value itself as the address), not INT64_TO_INT64"
    ),
    "blind7-u64-replaces-uint32": (
        "the new line replaces the uint32 line instead of being added "
        "before it: uint32 scalars are refused"
    ),
    "blind7-u64-bits-typo": (
        "the new test checks t.bits == 16U (a typo) so uint64 still fails and "
        "uint16 (never reaching the runtime) is accepted"
    ),
}

UNSEEN = {
    "blind7-u64-tensormap-code": (
        "as round 3's blind3-value-as-address: the kernel reads through the uint64 value taken for "
        "an address, and the upstream OpenCL test dies by SIGSEGV in the test process"
    ),
}

GOOD = (
    "    if (t.bits == 64U) return INT64_TO_INT64;\n"
    "    if (t.bits == 32U) return INT64_TO_UINT32;\n"
)

BAD = {
    "blind7-u64-uint32-code": (
        "    if (t.bits == 64U) return INT64_TO_UINT32;\n    if (t.bits == "
        "32U) return INT64_TO_UINT32;\n"
    ),
    "blind7-u64-int32-code": (
        "    if (t.bits == 64U) return INT64_TO_INT32;\n    if (t.bits == "
        "32U) return INT64_TO_UINT32;\n"
    ),
    "blind7-u64-float32-code": (
        "    if (t.bits == 64U) return FLOAT64_TO_FLOAT32;\n    if (t.bits "
        "== 32U) return INT64_TO_UINT32;\n"
    ),
    "blind7-u64-tensormap-code": (
        "    if (t.bits == 64U) return HANDLE_TO_TENSORMAP;\n    if "
        "(t.bits == 32U) return INT64_TO_UINT32;\n"
    ),
    "blind7-u64-replaces-uint32": "    if (t.bits == 64U) return INT64_TO_INT64;\n",
    "blind7-u64-bits-typo": (
        "    if (t.bits == 16U) return INT64_TO_INT64;\n    if (t.bits == "
        "32U) return INT64_TO_UINT32;\n"
    ),
}


def install(name):
    bad = BAD[name]

    def change(path, text):
        fixed = fix.change_pack_args(path, text)
        body = fixed.split("// the 64 bits of an FFI integer are those of the uint64 value\n")
        assert len(body) == 2 and body[1].startswith(GOOD), "patch 0007's hunk not found"
        return body[0] + bad + body[1][len(GOOD) :]

    return select_variant(opencl_runtime().Variant(name, [fix.HEADER], change))
