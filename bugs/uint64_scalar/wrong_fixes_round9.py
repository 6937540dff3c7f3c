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
"""Blind round 9: wrong fixes of the uint64 kernel scalar fix, each an OpenCL runtime
built with ``pack_args.h`` changed by a variant of patch 0007's hunk (one step done wrong), as
the reference fix is the runtime built with the hunk itself. Only a launch on the OpenCL device
tells them apart.

The first four change the line the hunk adds to ``GetArgConvertCode``; the last four model an
implementer who gives uint64 a conversion code of its own (``INT64_TO_UINT64``) handled by a new
case of ``PackFuncVoidAddr_`` (the OpenCL and CUDA packer) into a holder widened with a
``uint64_t v_uint64`` member, each with one step of that case wrong.
"""

from bugs.uint64_scalar import reference_fix
from harness.reference_fixes import opencl_runtime

NEEDS_OPENCL = True

WRONG_FIXES = {
    "blind9-u64-int32-code": "GetArgConvertCode maps uint64 to INT64_TO_INT32 (a 4-byte slot)",
    "blind9-u64-float32-code": "GetArgConvertCode maps uint64 to FLOAT64_TO_FLOAT32",
    "blind9-u64-in-int-branch": "the uint64 line is added to the kDLInt branch (dead code there)",
    "blind9-u64-bits-32-typo": "the added line tests t.bits == 32U: uint64 is still refused",
    "blind9-u64-zero-extend-low": "the new case copies the uint32 case's cast: low 32 bits only",
    "blind9-u64-sign-extend-low": "the new case copies the int32 case's cast: low 32 bits, "
    "sign-extended",
    "blind9-u64-next-slot": "the new case takes the address of raw_args[i + 1] (off by one)",
    "blind9-u64-read-as-float64": "the new case reads the FFI value's float64 view and converts "
    "it to uint64",
}

# the hunk's line as patch 0007 adds it to GetArgConvertCode
_LINE = (
    "    if (t.bits == 64U) return INT64_TO_INT64;\n    if (t.bits == 32U) return INT64_TO_UINT32;"
)
_UINT_BRANCH = "  } else if (t.code == kDLUInt) {\n"


def _own_code(case):
    """The edits of a uint64 code of its own, INT64_TO_UINT64, whose PackFuncVoidAddr_ case is
    ``case`` (C++ lines at the case's indentation)."""
    return [
        ("  INT64_TO_INT64,\n", "  INT64_TO_INT64,\n  INT64_TO_UINT64,\n"),
        ("  float v_float32;\n};", "  float v_float32;\n  uint64_t v_uint64;\n};"),
        (
            "    if (t.bits == 64U) return INT64_TO_INT64;\n    if (t.bits == 32U) "
            "return INT64_TO_UINT32;",
            "    if (t.bits == 64U) return INT64_TO_UINT64;\n    if (t.bits == 32U) "
            "return INT64_TO_UINT32;",
        ),
        (
            "        case INT64_TO_UINT32: {\n          holder[i].v_uint32 =",
            "        case INT64_TO_UINT64: {\n" + case + "          break;\n        }\n"
            "        case INT64_TO_UINT32: {\n          holder[i].v_uint32 =",
        ),
        # the other packers, which OpenCL does not use, pass it as the int64 it is
        (
            "        case INT64_TO_INT64: {\n          holder[i].v_int64",
            "        case INT64_TO_UINT64:\n        case INT64_TO_INT64: {\n"
            "          holder[i].v_int64",
        ),
        (
            "        case INT64_TO_INT64:\n        case FLOAT64_TO_FLOAT64: {\n"
            "          ensure_alignment_to_multiple_of_i32(2);",
            "        case INT64_TO_UINT64:\n        case INT64_TO_INT64:\n"
            "        case FLOAT64_TO_FLOAT64: {\n          ensure_alignment_to_multiple_of_i32(2);",
        ),
    ]


# name: (whether the edits apply to the header patch 0007 leaves, else to the original; edits)
_EDITS = {
    "blind9-u64-int32-code": (
        True,
        [(_LINE, _LINE.replace("return INT64_TO_INT64;", "return INT64_TO_INT32;", 1))],
    ),
    "blind9-u64-float32-code": (
        True,
        [(_LINE, _LINE.replace("return INT64_TO_INT64;", "return FLOAT64_TO_FLOAT32;", 1))],
    ),
    "blind9-u64-in-int-branch": (
        False,
        [(_UINT_BRANCH, "    if (t.bits == 64U) return INT64_TO_INT64;\n" + _UINT_BRANCH)],
    ),
    "blind9-u64-bits-32-typo": (
        False,
        [(_UINT_BRANCH, _UINT_BRANCH + "    if (t.bits == 32U) return INT64_TO_INT64;\n")],
    ),
    "blind9-u64-zero-extend-low": (
        True,
        _own_code(
            "          holder[i].v_uint64 = static_cast<uint32_t>(raw_args[i].v_int64);\n"
            "          addr[i] = &(holder[i]);\n"
        ),
    ),
    "blind9-u64-sign-extend-low": (
        True,
        _own_code(
            "          holder[i].v_uint64 = static_cast<int32_t>(raw_args[i].v_int64);\n"
            "          addr[i] = &(holder[i]);\n"
        ),
    ),
    "blind9-u64-next-slot": (
        True,
        _own_code("          addr[i] = (void*)&(raw_args[i + 1].v_ptr);  // NOLINT(*)\n"),
    ),
    "blind9-u64-read-as-float64": (
        True,
        _own_code(
            "          holder[i].v_uint64 = static_cast<uint64_t>(raw_args[i].v_float64);\n"
            "          addr[i] = &(holder[i]);\n"
        ),
    ),
}


def _change(name):
    after_patch, edits = _EDITS[name]

    def change(path, text):
        if after_patch:
            text = reference_fix.change_pack_args(path, text)
        for old, new in edits:
            if text.count(old) != 1:
                raise ValueError(f"{name}: {old!r} is not once in src/runtime/{path}")
            text = text.replace(old, new)
        return text

    return change


def install(name):
    """Select the OpenCL runtime built with the wrong fix ``name``; return the undo function."""
    runtime = opencl_runtime()
    runtime.select(runtime.Variant(name, [reference_fix.HEADER], _change(name)))

    def uninstall():
        if not runtime.loaded():  # a loaded runtime stays for the process
            runtime.select(None)

    return uninstall
