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
"""Blind round 6: wrong fixes of the uint64 kernel scalar runtime (pack_args.h variants)."""

from bugs.uint64_scalar import reference_fix as fix
from bugs.uint64_scalar.wrong_fixes import select_variant
from harness.reference_fixes import opencl_runtime

WRONG_FIXES = {
    "blind6-u64-signed32-holder": "uint64 mapped to INT64_TO_INT32 (the 32-bit signed holder) "
    "instead of INT64_TO_INT64: the high word is lost",
    "blind6-u64-holder-spill": "a new UINT64 code writes the value as 64 bits into the 32-bit "
    "ArgUnion32 holder, spilling into the next argument's holder",
    "blind6-u64-uint32-line-dropped": "the uint32 line is overwritten by the uint64 one: uint32 "
    "kernel scalars are now refused",
    "blind6-u64-int64-line-edited": "the hunk landed on the int branch's 64-bit line, which now "
    "returns INT64_TO_UINT32: int64 scalars are truncated",
    "blind6-u64-top-bit-refused": "a new UINT64 code refuses values whose top bit is set "
    "(negative as int64) as out of range",
    "blind6-u64-float-branch": "the uint64 line was put in the float branch (kDLFloat 64 already "
    "returns first), so uint64 is still refused",
}

NEW = (
    "    // the 64 bits of an FFI integer are those of the uint64 value\n"
    "    if (t.bits == 64U) return INT64_TO_INT64;\n"
)
U32 = "    if (t.bits == 32U) return INT64_TO_UINT32;\n"
ENUM = "  INT64_TO_UINT32,\n"


def _edit(name, text):
    fixed = fix.change_pack_args(fix.HEADER, text)
    if name == "blind6-u64-signed32-holder":
        return fixed.replace(NEW, NEW.replace("INT64_TO_INT64", "INT64_TO_INT32"))
    if name == "blind6-u64-uint32-line-dropped":
        return fixed.replace(NEW + U32, NEW)
    if name == "blind6-u64-int64-line-edited":
        return text.replace(
            "    if (t.bits == 64U) return INT64_TO_INT64;\n    if (t.bits == 32U) return "
            "INT64_TO_INT32;",
            "    if (t.bits == 64U) return INT64_TO_UINT32;\n    if (t.bits == 32U) return "
            "INT64_TO_INT32;",
        ).replace(U32, NEW + U32)
    if name == "blind6-u64-float-branch":
        return text.replace(
            "    if (t.bits == 32U) return FLOAT64_TO_FLOAT32;\n",
            "    if (t.bits == 32U) return FLOAT64_TO_FLOAT32;\n" + NEW,
        )
    # the two with a new code UINT64_TO_UINT64 in PackFuncVoidAddr_
    out = text.replace(ENUM, ENUM + "  UINT64_TO_UINT64,\n").replace(
        U32, "    if (t.bits == 64U) return UINT64_TO_UINT64;\n" + U32
    )
    if name == "blind6-u64-holder-spill":
        case = (
            "        case UINT64_TO_UINT64: {\n"
            "          *reinterpret_cast<uint64_t*>(&holder[i]) = raw_args[i].v_uint64;\n"
            "          addr[i] = &(holder[i]);\n"
            "          break;\n"
            "        }\n"
        )
    else:
        case = (
            "        case UINT64_TO_UINT64: {\n"
            "          if (raw_args[i].v_int64 < 0) {\n"
            '            TVM_FFI_THROW(ValueError) << "uint64 kernel argument out of range";\n'
            "          }\n"
            "          addr[i] = (void*)&(raw_args[i].v_ptr);  // NOLINT(*)\n"
            "          break;\n"
            "        }\n"
        )
    anchor = (
        "        case INT64_TO_INT32: {\n"
        "          holder[i].v_int32 = static_cast<int32_t>(raw_args[i].v_int64);"
    )
    assert anchor in out
    out = out.replace(anchor, case + anchor, 1)
    # the other switches: treat it as int64 (they are not on OpenCL's path)
    out = out.replace(
        "        case INT64_TO_INT64: {\n          holder[i].v_int64",
        "        case UINT64_TO_UINT64:\n        case INT64_TO_INT64: {\n          "
        "holder[i].v_int64",
    ).replace(
        "        case INT64_TO_INT64:\n        case FLOAT64_TO_FLOAT64: {\n          ensure",
        "        case UINT64_TO_UINT64:\n        case INT64_TO_INT64:\n        case "
        "FLOAT64_TO_FLOAT64: {\n          ensure",
    )
    return out


def install(name):
    variant = opencl_runtime().Variant(name, [fix.HEADER], lambda path, text: _edit(name, text))
    return select_variant(variant)
