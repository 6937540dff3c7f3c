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
"""Third blind round: wrong fixes of uint64_scalar, built as variants of the OpenCL runtime.

Each is the reference fix (patch 0007's change of src/runtime/pack_args.h,
bugs/uint64_scalar/reference_fix.py) with one plausible mistake, built as a variant of the
OpenCL runtime (only a launch tells them apart)."""

from bugs.uint64_scalar import reference_fix as fix
from bugs.uint64_scalar.wrong_fixes import select_variant
from bugs.uint64_scalar.wrong_fixes_round2 import _replace_once
from harness.reference_fixes import opencl_runtime

NEEDS_OPENCL = True

WRONG_FIXES = {
    "blind3-uint32-code": (
        "GetArgConvertCode maps uint64 to INT64_TO_UINT32 (the uint branch's existing code), "
        "which keeps 32 of its 64 bits"
    ),
    "blind3-holder-overflow": (
        "a new UINT64_TO_UINT64 code copies the 8 bytes into PackFuncVoidAddr's 32-bit "
        "holder, which the next 32-bit scalar argument overwrites"
    ),
    "blind3-value-as-address": (
        "a new UINT64_TO_UINT64 code in PackFuncVoidAddr copies the HANDLE_TO_TENSORMAP case: "
        "it passes the value itself as the argument's address"
    ),
    "blind3-case-fallthrough": (
        "a new UINT64_TO_UINT64 case in PackFuncVoidAddr sets the slot's address but has no "
        "break, and falls through into INT64_TO_INT32"
    ),
    "blind3-every-uint-width": (
        "the uint branch returns INT64_TO_INT64 for every width but 32, so uint8 and uint16 "
        "kernel scalars (which SplitHostDevice must widen) are launched instead of refused"
    ),
    "blind3-dead-in-int-branch": (
        "the uint64 line is added to the kDLInt branch, where t.code is never kDLUInt: "
        "uint64 is still refused"
    ),
}

# the wrong fixes no test can see (scripts/wrong_fixes.py does not run them; docs/proof.md
# names them)
UNSEEN = {
    "blind3-every-uint-width": "uint8 and uint16 kernel scalars never reach a runtime in the "
    "series: patch 0004 widens every kernel scalar narrower than 32 bits",
    "blind3-value-as-address": "the kernel reads through the uint64 value taken for an address: "
    "the upstream OpenCL test dies by SIGSEGV in the test process instead of failing",
}

_UINT_BRANCH = """  } else if (t.code == kDLUInt) {
    if (t.bits == 32U) return INT64_TO_UINT32;
"""

_NEW_CODE_ENUM = ("  INT64_TO_INT64,\n", "  INT64_TO_INT64,\n  UINT64_TO_UINT64,\n")
_NEW_CODE_RETURN = (
    _UINT_BRANCH,
    _UINT_BRANCH.replace("{\n", "{\n    if (t.bits == 64U) return UINT64_TO_UINT64;\n", 1),
)
# the other two packers: the 64-bit slot, as INT64_TO_INT64
_NEW_CODE_OTHERS = [
    (
        "        case INT64_TO_INT64: {\n          holder[i].v_int64",
        "        case UINT64_TO_UINT64:\n        case INT64_TO_INT64: {\n          "
        "holder[i].v_int64",
    ),
    (
        "        case INT64_TO_INT64:\n        case FLOAT64_TO_FLOAT64: {\n          "
        "ensure_alignment",
        "        case UINT64_TO_UINT64:\n        case INT64_TO_INT64:\n        case "
        "FLOAT64_TO_FLOAT64: {\n          ensure_alignment",
    ),
]
# PackFuncVoidAddr_'s first case, before which each new case goes
_VOID_ADDR_FIRST = "        case INT64_TO_INT32: {\n          holder[i].v_int32 = "


def _new_code(void_addr_case):
    def change(path, text):
        for old, new in [_NEW_CODE_ENUM, _NEW_CODE_RETURN, *_NEW_CODE_OTHERS]:
            text = _replace_once(text, old, new)
        return _replace_once(text, _VOID_ADDR_FIRST, void_addr_case + _VOID_ADDR_FIRST)

    return change


def _uint_branch(new_branch):
    def change(path, text):
        return _replace_once(text, _UINT_BRANCH, new_branch)

    return change


_CHANGES = {
    "blind3-uint32-code": _uint_branch(
        "  } else if (t.code == kDLUInt) {\n"
        "    if (t.bits == 64U) return INT64_TO_UINT32;\n"
        "    if (t.bits == 32U) return INT64_TO_UINT32;\n"
    ),
    "blind3-holder-overflow": _new_code(
        "        case UINT64_TO_UINT64: {\n"
        "          std::memcpy(&(holder[i]), &(raw_args[i].v_int64), sizeof(uint64_t));\n"
        "          addr[i] = &(holder[i]);\n"
        "          break;\n"
        "        }\n"
    ),
    "blind3-value-as-address": _new_code(
        "        case UINT64_TO_UINT64: {\n"
        "          addr[i] = raw_args[i].v_ptr;\n"
        "          break;\n"
        "        }\n"
    ),
    "blind3-case-fallthrough": _new_code(
        "        case UINT64_TO_UINT64:\n"
        "          addr[i] = (void*)&(raw_args[i].v_ptr);  // NOLINT(*)\n"
    ),
    "blind3-every-uint-width": _uint_branch(
        "  } else if (t.code == kDLUInt) {\n"
        "    if (t.bits != 32U) return INT64_TO_INT64;\n"
        "    if (t.bits == 32U) return INT64_TO_UINT32;\n"
    ),
    "blind3-dead-in-int-branch": lambda path, text: _replace_once(
        text,
        "  if (t.code == kDLInt) {\n    if (t.bits == 64U) return INT64_TO_INT64;\n",
        "  if (t.code == kDLInt) {\n    if (t.bits == 64U) return INT64_TO_INT64;\n"
        "    // the 64 bits of an FFI integer are those of the uint64 value\n"
        "    if (t.code == kDLUInt && t.bits == 64U) return INT64_TO_INT64;\n",
    ),
}


def install(name):
    """Select the OpenCL runtime built with the wrong fix ``name``; return an uninstaller."""
    variant = opencl_runtime().Variant(f"uint64_scalar-{name}", [fix.HEADER], _CHANGES[name])
    return select_variant(variant)
