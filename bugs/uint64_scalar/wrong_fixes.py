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
"""Wrong fixes of the uint64-kernel-scalar report: variants of bugs/uint64_scalar/reference_fix.py.

Each is an OpenCL runtime built with another change of ``pack_args.h`` (or none): only a launch
on an OpenCL device can tell them from the reference fix, so scripts/wrong_fixes.py judges them
where there is one (``NEEDS_OPENCL``).
"""

from bugs.uint64_scalar import reference_fix as fix
from harness.reference_fixes import opencl_runtime

NEEDS_OPENCL = True

WRONG_FIXES = {
    "uint32-slot": "uint64 takes the uint32 path: the value loses its high 32 bits",
    "int32-slot": "uint64 takes the int32 path: the value loses its high 32 bits",
    "cuda-runtime-only": "the conversion is fixed in CUDA's runtime, not in the header that "
    "OpenCL, ROCm, Vulkan and Metal share",
    "64-bit-slot-fallback": "the 64-bit slot is a fallback: a uint64 value that fits 32 bits "
    "goes through the 32-bit slot, which fills only half of the 8-byte parameter",
    "32-bit-slot-fallback": "the 32-bit slot is the fallback: a uint64 value below 2**32 goes "
    "through the 64-bit slot, a larger one loses its high 32 bits",
}

# the line patch 0007 adds, and the one after it
_REFERENCE_LINE = (
    "if (t.bits == 64U) return INT64_TO_INT64;\n    if (t.bits == 32U) return INT64_TO_UINT32;"
)


_reference_change = fix.change_pack_args


def _converting_to(code):
    def change(path, text):
        fixed = _reference_change(path, text)
        assert fixed.count(_REFERENCE_LINE) == 1, "patch 0007's line moved"
        return fixed.replace(_REFERENCE_LINE, _REFERENCE_LINE.replace("INT64_TO_INT64", code, 1))

    return change


# a conversion code of its own for uint64, which looks at the value (PackFuncVoidAddr_, the
# packing OpenCL and CUDA use; the other packings never see it here)
_ENUM_END = "  HANDLE_TO_TENSORMAP\n};"
_VOID_ADDR_CASE = "        case HANDLE_TO_TENSORMAP: {\n          addr[i] = raw_args[i].v_ptr;"
_BY_VALUE_CASE = """        case UINT64_BY_VALUE: {{
          uint64_t value = static_cast<uint64_t>(raw_args[i].v_int64);
          if (value {fits} UINT32_MAX) {{
            holder[i].v_uint32 = static_cast<uint32_t>(value);
            addr[i] = &(holder[i]);
          }} else {{
            addr[i] = (void*)&(raw_args[i].v_ptr);  // NOLINT(*)
          }}
          break;
        }}
"""


def _by_value(small_in_32_bit_slot):
    """uint64 takes the 32-bit slot for values that fit 32 bits (``small_in_32_bit_slot``) or
    for the others, and the 64-bit slot for the rest."""

    def change(path, text):
        fixed = _reference_change(path, text)
        assert fixed.count(_REFERENCE_LINE) == 1, "patch 0007's line moved"
        assert fixed.count(_ENUM_END) == fixed.count(_VOID_ADDR_CASE) == 1, "pack_args.h moved"
        fixed = fixed.replace(_ENUM_END, "  HANDLE_TO_TENSORMAP,\n  UINT64_BY_VALUE\n};")
        fixed = fixed.replace(
            _REFERENCE_LINE, _REFERENCE_LINE.replace("INT64_TO_INT64", "UINT64_BY_VALUE", 1)
        )
        case = _BY_VALUE_CASE.format(fits="<=" if small_in_32_bit_slot else ">")
        return fixed.replace(_VOID_ADDR_CASE, case + _VOID_ADDR_CASE)

    return change


def select_variant(variant):
    """Select the OpenCL runtime ``variant`` for this process (how the later rounds install a
    wrong fix); return the undo function, which leaves a runtime already loaded in place: it
    stays for the process."""
    runtime = opencl_runtime()
    runtime.select(variant)

    def uninstall():
        if not runtime.loaded():
            runtime.select(None)

    return uninstall


def _plain_runtime():
    return None


PATCHES = {
    "uint32-slot": {"change_pack_args": _converting_to("INT64_TO_UINT32")},
    "int32-slot": {"change_pack_args": _converting_to("INT64_TO_INT32")},
    "cuda-runtime-only": {"variant": _plain_runtime},
    "64-bit-slot-fallback": {"change_pack_args": _by_value(True)},
    "32-bit-slot-fallback": {"change_pack_args": _by_value(False)},
}
