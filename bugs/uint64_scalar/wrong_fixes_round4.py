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
"""Blind round 4 wrong fixes of the uint64 kernel scalar report (patch 0007): each is the OpenCL
runtime built with ``src/runtime/pack_args.h`` changed by one mistake, in place of patch 0007's
own hunk (bugs/uint64_scalar/reference_fix.py builds that one)."""

from bugs.uint64_scalar import reference_fix as fix
from bugs.uint64_scalar.wrong_fixes import select_variant
from bugs.uint64_scalar.wrong_fixes_round2 import _replace_once
from harness.reference_fixes import opencl_runtime

NEEDS_OPENCL = True

WRONG_FIXES = {
    "blind4-int32-slot": "uint64 is mapped to INT64_TO_INT32 (the int branch's 32-bit line "
    "copied): the runtime packs 32 bits and the kernel reads 64, its top half from the next "
    "argument's holder",
    "blind4-float-branch": "the new uint64 line lands in the kDLFloat branch (after the "
    "float64 line): a uint64 kernel scalar still fails with 'Cannot handle uint64'",
    "blind4-replaces-uint32": "the uint branch's 32-bit line is edited into the 64-bit one "
    "instead of a line being added: uint32 kernel scalars now fail with 'Cannot handle uint32'",
    "blind4-int64-line-moved": "the int branch's 64-bit line is moved into the uint branch "
    "instead of copied: int64 kernel scalars now fail with 'Cannot handle int64'",
    "blind4-new-code-tensormap-case": "a new code INT64_TO_UINT64 is added and handled by the "
    "Vulkan/Metal and ROCm packers, but in PackFuncVoidAddr_ (CUDA, OpenCL) its case is put "
    "beside HANDLE_TO_TENSORMAP's: the uint64 value is passed as the argument's address",
    "blind4-narrow-uints-accepted": "the uint branch returns INT64_TO_INT64 for 64 bits and "
    "INT64_TO_UINT32 for every narrower width: uint8/uint16 kernel scalars, which patch 0004 "
    "widens at compile time, are launched instead of refused",
}

# wrong fixes no test can see (docs/proof.md, the fourth round)
UNSEEN = {
    "blind4-narrow-uints-accepted": "as round 3's blind3-every-uint-width: uint8 and uint16 "
    "kernel scalars never reach a runtime in the series: patch 0004 widens every kernel scalar "
    "narrower than 32 bits",
    "blind4-new-code-tensormap-case": "the packer takes the uint64 argument for a tensor map: "
    "the upstream OpenCL test dies by SIGSEGV in the test process instead of failing",
}

_UINT32_LINE = "    if (t.bits == 32U) return INT64_TO_UINT32;\n"
_UINT64_LINES = (
    "    // the 64 bits of an FFI integer are those of the uint64 value\n"
    "    if (t.bits == 64U) return INT64_TO_INT64;\n"
)
_INT64_LINE = (
    "    if (t.bits == 64U) return INT64_TO_INT64;\n    if (t.bits == 32U) return INT64_TO_INT32;\n"
)


def _int32_slot(text):
    fixed = fix.change_pack_args(fix.HEADER, text)
    return _replace_once(
        fixed,
        "if (t.bits == 64U) return INT64_TO_INT64;\n    if (t.bits == 32U) return INT64_TO_UINT32;",
        "if (t.bits == 64U) return INT64_TO_INT32;\n    if (t.bits == 32U) return INT64_TO_UINT32;",
    )


def _float_branch(text):
    return _replace_once(
        text,
        "    if (t.bits == 64U) return FLOAT64_TO_FLOAT64;\n",
        "    if (t.bits == 64U) return FLOAT64_TO_FLOAT64;\n" + _UINT64_LINES,
    )


def _replaces_uint32(text):
    return _replace_once(text, _UINT32_LINE, _UINT64_LINES)


def _int64_line_moved(text):
    text = _replace_once(text, _INT64_LINE, "    if (t.bits == 32U) return INT64_TO_INT32;\n")
    return _replace_once(text, _UINT32_LINE, _UINT64_LINES + _UINT32_LINE)


def _new_code_tensormap_case(text):
    text = _replace_once(
        text, "  HANDLE_TO_TENSORMAP\n};", "  HANDLE_TO_TENSORMAP,\n  INT64_TO_UINT64\n};"
    )
    text = _replace_once(
        text, _UINT32_LINE, "    if (t.bits == 64U) return INT64_TO_UINT64;\n" + _UINT32_LINE
    )
    # PackFuncVoidAddr_: the new case lands beside the last one, HANDLE_TO_TENSORMAP's
    text = _replace_once(
        text,
        "        case HANDLE_TO_TENSORMAP: {\n          addr[i] = raw_args[i].v_ptr;",
        "        case HANDLE_TO_TENSORMAP:\n        case INT64_TO_UINT64: {\n          addr[i] = "
        "raw_args[i].v_ptr;",
    )
    # PackFuncNonBufferArg_ and PackFuncPackedArgAligned_: as INT64_TO_INT64
    text = _replace_once(
        text,
        "        case INT64_TO_INT64: {\n          holder[i].v_int64",
        "        case INT64_TO_INT64:\n"
        "        case INT64_TO_UINT64: {\n          holder[i].v_int64",
    )
    return _replace_once(
        text,
        "        case INT64_TO_INT64:\n        case FLOAT64_TO_FLOAT64: {\n          "
        "ensure_alignment",
        "        case INT64_TO_INT64:\n        case INT64_TO_UINT64:\n        case "
        "FLOAT64_TO_FLOAT64: {\n          ensure_alignment",
    )


def _narrow_uints_accepted(text):
    return _replace_once(
        text,
        _UINT32_LINE,
        _UINT64_LINES + "    if (t.bits < 32U) return INT64_TO_UINT32;\n" + _UINT32_LINE,
    )


_CHANGES = {
    "blind4-int32-slot": _int32_slot,
    "blind4-float-branch": _float_branch,
    "blind4-replaces-uint32": _replaces_uint32,
    "blind4-int64-line-moved": _int64_line_moved,
    "blind4-new-code-tensormap-case": _new_code_tensormap_case,
    "blind4-narrow-uints-accepted": _narrow_uints_accepted,
}


def variant(name):
    """The OpenCL runtime of the wrong fix ``name``."""
    change = _CHANGES[name]
    return opencl_runtime().Variant(name, [fix.HEADER], lambda _path, text: change(text))


def install(name):
    """Select the OpenCL runtime of the wrong fix ``name``; return the undo function."""
    return select_variant(variant(name))
