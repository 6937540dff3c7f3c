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
"""Blind round 5: wrong fixes of the uint64 kernel scalar (src/runtime/pack_args.h).

Like the reference fix, each is an OpenCL runtime built against the wheel's ``src/runtime``
with ``pack_args.h`` changed: patch 0007's hunk with one mistake, or the mistaken edit in its
place. Only a launch on the OpenCL device tells them apart."""

from bugs.uint64_scalar import reference_fix as fix
from bugs.uint64_scalar.wrong_fixes import select_variant
from harness.reference_fixes import opencl_runtime

NEEDS_OPENCL = True

WRONG_FIXES = {
    "blind5-u64-truncated-to-uint32": (
        "GetArgConvertCode gives a 64-bit unsigned scalar INT64_TO_UINT32 (the unsigned "
        "branch's code): its value is cut to a 32-bit holder the kernel reads 8 bytes from"
    ),
    "blind5-u64-value-as-address": (
        "a new code UINT64_TO_UINT64 is handled in PackFuncVoidAddr_ with the TENSORMAP case "
        "(addr = v_ptr: the value itself taken for the argument's address)"
    ),
    "blind5-u64-address-of-whole-any": (
        "a new code UINT64_TO_UINT64 passes the address of the whole TVMFFIAny (&raw_args[i]), "
        "not of its value field: the kernel gets the type index"
    ),
    "blind5-u64-replaces-uint32-line": (
        "the uint64 line replaces the uint32 one instead of joining it: a uint32 kernel scalar "
        "is now refused at launch"
    ),
    "blind5-u64-case-in-float-group": (
        "a new code UINT64_TO_UINT64's case label is put above FLOAT64_TO_FLOAT32 in "
        "PackFuncVoidAddr_: the integer's bits are converted as a double to float"
    ),
    "blind5-u64-any-other-uint-as-uint32": (
        "the unsigned branch ends in 'return INT64_TO_UINT32' after the 64-bit line, so the "
        "uint8/uint16 scalars the design refuses at launch (they are widened at compile time "
        "instead) are passed in a 32-bit holder"
    ),
}

UNSEEN = {
    "blind5-u64-any-other-uint-as-uint32": "as round 3's blind3-every-uint-width: uint8 and "
    "uint16 kernel scalars never reach a runtime in the series (patch 0004 widens every kernel "
    "scalar narrower than 32 bits at compile time)",
    "blind5-u64-value-as-address": "the kernel reads through the uint64 value taken for an "
    "address: the upstream OpenCL test dies by SIGSEGV in the test process instead of failing",
}

_UINT32 = "    if (t.bits == 32U) return INT64_TO_UINT32;\n"
_UINT64 = "    if (t.bits == 64U) return INT64_TO_INT64;\n"
# the line patch 0007 adds to the unsigned branch, with its comment
_COMMENT = "    // the 64 bits of an FFI integer are those of the uint64 value\n"
_UINT64_FIXED = _COMMENT + _UINT64
_ENUM = "  INT64_TO_INT64,\n"
_NEW_CODE = "  INT64_TO_INT64,\n  UINT64_TO_UINT64,\n"


def _fixed(text):
    return fix.change_pack_args(fix.HEADER, text)


def _replace(text, old, new, count=1):
    if text.count(old) < count:
        raise RuntimeError(f"pack_args.h: {old!r} not found")
    return text.replace(old, new, count)


def _truncated(_path, text):
    return _replace(
        _fixed(text), _UINT64_FIXED, _COMMENT + "    if (t.bits == 64U) return INT64_TO_UINT32;\n"
    )


def _new_code(text, void_addr_case):
    """pack_args.h with a new code UINT64_TO_UINT64 for uint64: in PackFuncNonBufferArg_ and
    PackFuncPackedArgAligned_ with INT64_TO_INT64, in PackFuncVoidAddr_ as ``void_addr_case``
    (text inserted before a case label of that switch)."""
    text = _fixed_uint64_code(_replace(_fixed(text), _ENUM, _NEW_CODE))
    # the other two packers: with INT64_TO_INT64
    text = _replace(
        text,
        "        case INT64_TO_INT64: {\n          holder[i].v_int64",
        "        case UINT64_TO_UINT64:\n"
        "        case INT64_TO_INT64: {\n          holder[i].v_int64",
    )
    text = _replace(
        text,
        "        case INT64_TO_INT64:\n        case FLOAT64_TO_FLOAT64: {\n          ensure",
        "        case UINT64_TO_UINT64:\n        case INT64_TO_INT64:\n"
        "        case FLOAT64_TO_FLOAT64: {\n          ensure",
    )
    anchor, inserted = void_addr_case
    return _replace(text, anchor, inserted + anchor)


def _fixed_uint64_code(text):
    return _replace(
        text, _UINT64_FIXED, _COMMENT + "    if (t.bits == 64U) return UINT64_TO_UINT64;\n"
    )


_VOID_ADDR_INT32 = "        case INT64_TO_INT32: {\n          holder[i].v_int32"
_VOID_ADDR_F32 = (
    "        case FLOAT64_TO_FLOAT32: {\n"
    "          holder[i].v_float32 = static_cast<float>(raw_args[i].v_float64);\n"
    "          addr[i]"
)


def _value_as_address(_path, text):
    case = (
        "        case UINT64_TO_UINT64: {\n"
        "          addr[i] = raw_args[i].v_ptr;\n"
        "          break;\n"
        "        }\n"
    )
    return _new_code(text, (_VOID_ADDR_INT32, case))


def _whole_any(_path, text):
    case = (
        "        case UINT64_TO_UINT64: {\n"
        "          addr[i] = (void*)&(raw_args[i]);  // NOLINT(*)\n"
        "          break;\n"
        "        }\n"
    )
    return _new_code(text, (_VOID_ADDR_INT32, case))


def _float_group(_path, text):
    return _new_code(text, (_VOID_ADDR_F32, "        case UINT64_TO_UINT64:\n"))


def _replaces_uint32(_path, text):
    # the unsigned branch's 32-bit line (the first is the signed branch's 64-bit one)
    head, sep, tail = text.partition("} else if (t.code == kDLUInt) {\n")
    return head + sep + _replace(tail, _UINT32, _COMMENT + _UINT64)


def _any_other_uint(_path, text):
    return _replace(_fixed(text), _UINT32, _UINT32 + "    return INT64_TO_UINT32;\n")


_CHANGES = {
    "blind5-u64-truncated-to-uint32": _truncated,
    "blind5-u64-value-as-address": _value_as_address,
    "blind5-u64-address-of-whole-any": _whole_any,
    "blind5-u64-replaces-uint32-line": _replaces_uint32,
    "blind5-u64-case-in-float-group": _float_group,
    "blind5-u64-any-other-uint-as-uint32": _any_other_uint,
}


def install(name):
    """Select the OpenCL runtime built with the wrong fix ``name``; return the undo
    function."""
    variant = opencl_runtime().Variant(f"uint64_scalar-{name}", [fix.HEADER], _CHANGES[name])
    return select_variant(variant)
