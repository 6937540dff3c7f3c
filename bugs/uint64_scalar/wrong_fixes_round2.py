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
"""Second blind round: wrong fixes of the uint64 kernel scalar report: like the reference fix
(bugs/uint64_scalar/reference_fix.py), each is TVM's OpenCL runtime built against the wheel's
``src/runtime`` with ``pack_args.h`` changed, here with one plausible mistake instead of patch
0007's hunk. Only a launch tells them apart (the compiler is untouched)."""

NEEDS_OPENCL = True

from bugs.uint64_scalar.wrong_fixes import select_variant  # noqa: E402
from harness.reference_fixes import opencl_runtime  # noqa: E402

WRONG_FIXES = {
    "blind2-uint64-as-uint32": "GetArgConvertCode maps uint64 to INT64_TO_UINT32 (the line "
    "below copied): the value is cut to 32 bits in a 4-byte holder",
    "blind2-line-in-int-branch": "the new `bits == 64 -> INT64_TO_INT64` line lands in the kDLInt "
    "branch (a duplicate there): uint64 is still refused",
    "blind2-bits-vs-bytes": "the new line compares bits with bytes (`t.bits == sizeof(uint64_t)`): "
    "it matches uint8, not uint64, which is still refused",
    "blind2-top-bit-rejected": "a new INT64_TO_UINT64 code passes the 64-bit slot but first checks "
    "that the FFI's int64 is not negative: a uint64 with its top bit set is refused",
}

HEADER = "pack_args.h"
_UINT32_LINE = "    if (t.bits == 32U) return INT64_TO_UINT32;\n"
_INT_BRANCH = "  if (t.code == kDLInt) {\n"


def _replace_once(text, old, new):
    if text.count(old) != 1:
        raise RuntimeError(f"{HEADER}: expected one {old!r}")
    return text.replace(old, new)


def _uint_line(line):
    """``pack_args.h`` with ``line`` added to the kDLUInt branch, before its 32-bit case."""

    def change(_path, text):
        return _replace_once(text, _UINT32_LINE, line + _UINT32_LINE)

    return change


def _line_in_int_branch(_path, text):
    return _replace_once(
        text, _INT_BRANCH, _INT_BRANCH + "    if (t.bits == 64U) return INT64_TO_INT64;\n"
    )


def _top_bit_rejected(_path, text):
    check = (
        '          TVM_FFI_ICHECK_GE(raw_args[{i}].v_int64, 0) << "uint64 argument out of range";\n'
    )
    text = _replace_once(text, "  INT64_TO_UINT32,\n", "  INT64_TO_UINT32,\n  INT64_TO_UINT64,\n")
    text = _replace_once(
        text, _UINT32_LINE, "    if (t.bits == 64U) return INT64_TO_UINT64;\n" + _UINT32_LINE
    )
    # PackFuncVoidAddr_ (CUDA, OpenCL): the FFI's slot, by address
    by_address = (
        "        case INT64_TO_INT64:\n"
        "        case FLOAT64_TO_FLOAT64:\n"
        "        case HANDLE_TO_HANDLE: {"
    )
    text = _replace_once(
        text,
        by_address,
        "        case INT64_TO_UINT64: {\n"
        + check.format(i="i")
        + "          addr[i] = (void*)&(raw_args[i].v_ptr);  // NOLINT(*)\n"
        "          break;\n"
        "        }\n" + by_address,
    )
    # PackFuncNonBufferArg_ (Vulkan, Metal): the 64-bit union member
    text = _replace_once(
        text,
        "        case INT64_TO_INT64: {\n          holder[i].v_int64 = raw_args[base + i].v_int64;",
        "        case INT64_TO_UINT64: {\n"
        + check.format(i="base + i")
        + "          holder[i].v_uint64 = static_cast<uint64_t>(raw_args[base + i].v_int64);\n"
        "          break;\n"
        "        }\n"
        "        case INT64_TO_INT64: {\n          holder[i].v_int64 = raw_args[base + i].v_int64;",
    )
    # PackFuncPackedArgAligned_ (ROCm): an 8-byte aligned field
    return _replace_once(
        text,
        "        case INT64_TO_INT64:\n        case FLOAT64_TO_FLOAT64: {\n"
        "          ensure_alignment_to_multiple_of_i32(2);",
        "        case INT64_TO_UINT64:\n" + check.format(i="i") + "          [[fallthrough]];\n"
        "        case INT64_TO_INT64:\n        case FLOAT64_TO_FLOAT64: {\n"
        "          ensure_alignment_to_multiple_of_i32(2);",
    )


_CHANGES = {
    "blind2-uint64-as-uint32": _uint_line("    if (t.bits == 64U) return INT64_TO_UINT32;\n"),
    "blind2-line-in-int-branch": _line_in_int_branch,
    "blind2-bits-vs-bytes": _uint_line(
        "    if (t.bits == sizeof(uint64_t)) return INT64_TO_INT64;\n"
    ),
    "blind2-top-bit-rejected": _top_bit_rejected,
}


def variant(name):
    """The OpenCL runtime of the wrong fix ``name``: ``pack_args.h`` with its mistake."""
    return opencl_runtime().Variant(f"uint64_scalar-{name}", [HEADER], _CHANGES[name])


def install(name):
    """Select the OpenCL runtime built with the wrong fix ``name``; return the undo function."""
    if name not in _CHANGES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return select_variant(variant(name))
