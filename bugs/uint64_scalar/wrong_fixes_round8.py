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
"""Blind round 8: wrong fixes of the uint64 kernel scalar report. The reference fix is
TVM's OpenCL runtime built with patch 0007's hunk of ``src/runtime/pack_args.h``; each wrong fix
is that runtime built with the hunk made with one mistake (``install(name)`` selects it for this
process, as the reference fix's ``install()`` selects its own), told apart by a launch on the
OpenCL device."""

from bugs.uint64_scalar import reference_fix as fix
from harness.reference_fixes import opencl_runtime

NEEDS_OPENCL = True

WRONG_FIXES = {
    "blind8-u64-copied-uint32-line": "the new line is the uint32 line copied with its bits changed "
    "only: a uint64 returns INT64_TO_UINT32, its 32-bit holder read as the 8-byte argument",
    "blind8-u64-tensormap-code": "the new line returns HANDLE_TO_TENSORMAP (the enum's last code): "
    "the uint64 value itself is taken as the argument's address",
    "blind8-u64-unsigned-fallback": "the uint branch ends in an unconditional return "
    "INT64_TO_INT64 (no bits == 64 test): uint8 and uint16 kernel scalars are passed too",
    "blind8-u64-any-type-fallback": "GetArgConvertCode's final refusal is replaced by return "
    "INT64_TO_INT64: every type it lacks (int8, uint16, ...) is passed from the 64-bit slot",
    "blind8-u64-nonbuffer-packer-only": "the uint64 mapping is added in PackFuncNonBufferArg's "
    "loop (Vulkan, Metal) instead of GetArgConvertCode: CUDA and OpenCL still refuse uint64",
    "blind8-u64-aligned-packer-only": "the uint64 mapping is added in PackFuncPackedArgAligned's "
    "loop (ROCm) instead of GetArgConvertCode: CUDA and OpenCL still refuse uint64",
}

UNSEEN = {
    "blind8-u64-tensormap-code": (
        "the kernel reads through the uint64 value taken for an address, as round 7's "
        "blind7-u64-tensormap-code: the upstream OpenCL test dies by SIGSEGV in the test process"
    ),
    # as round 2's blind2-every-width-but-32: in the series, patch 0004 widens every kernel
    # scalar narrower than 32 bits before a runtime sees one (and GetArgConvertCode refuses
    # vectors first), so the types these let through never reach a runtime
    "blind8-u64-unsigned-fallback": (
        "passes uint8/uint16 kernel scalars: in the series patch 0004 has widened them to uint32, "
        "so no compiled program tells it apart"
    ),
    "blind8-u64-any-type-fallback": (
        "passes every narrow scalar type: in the series patch 0004 has widened them all to 32 "
        "bits, so no compiled program tells it apart"
    ),
}

_UINT_LINES = (
    "  } else if (t.code == kDLUInt) {\n"
    "    // the 64 bits of an FFI integer are those of the uint64 value\n"
    "    if (t.bits == 64U) return INT64_TO_INT64;\n"
)
_UINT32 = "    if (t.bits == 32U) return INT64_TO_UINT32;\n"
_REFUSAL = (
    '  TVM_FFI_THROW(InternalError) << "Cannot handle " << t << " as device function argument";\n'
)
_LOOP = "    codes.push_back(detail::GetArgConvertCode(arg_types[i]));\n"
_MAPPED = (
    "    // the 64 bits of an FFI integer are those of the uint64 value\n"
    "    codes.push_back(arg_types[i].code == kDLUInt && arg_types[i].bits == 64U\n"
    "                        ? detail::INT64_TO_INT64\n"
    "                        : detail::GetArgConvertCode(arg_types[i]));\n"
)


def _once(text, old, new):
    """``text`` with its one ``old`` replaced by ``new``."""
    if text.count(old) != 1:
        raise ValueError(f"pack_args.h: {old!r} is not there once")
    return text.replace(old, new)


def _in_function(text, signature, old, new):
    """``text`` with ``old`` replaced by ``new`` once, in the function whose definition starts
    with ``signature`` (the first ``old`` after it)."""
    start = text.index(signature)
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old) :]


def _patched(path, text):
    return fix.change_pack_args(path, text)


CHANGES = {
    "blind8-u64-copied-uint32-line": lambda path, text: _once(
        _patched(path, text),
        _UINT_LINES,
        _UINT_LINES.replace("return INT64_TO_INT64", "return INT64_TO_UINT32"),
    ),
    "blind8-u64-tensormap-code": lambda path, text: _once(
        _patched(path, text),
        _UINT_LINES,
        _UINT_LINES.replace("return INT64_TO_INT64", "return HANDLE_TO_TENSORMAP"),
    ),
    "blind8-u64-unsigned-fallback": lambda path, text: _once(
        text,
        "  } else if (t.code == kDLUInt) {\n" + _UINT32,
        "  } else if (t.code == kDLUInt) {\n"
        + _UINT32
        + "    // the 64 bits of an FFI integer are those of the uint64 value\n"
        + "    return INT64_TO_INT64;\n",
    ),
    "blind8-u64-any-type-fallback": lambda path, text: _once(
        text,
        _REFUSAL,
        "  // the 64 bits of an FFI integer are those of the uint64 value\n"
        "  return INT64_TO_INT64;\n",
    ),
    "blind8-u64-nonbuffer-packer-only": lambda path, text: _in_function(
        text, "inline ffi::Function PackFuncNonBufferArg(F f", _LOOP, _MAPPED
    ),
    "blind8-u64-aligned-packer-only": lambda path, text: _in_function(
        text, "inline ffi::Function PackFuncPackedArgAligned(F f", _LOOP, _MAPPED
    ),
}


def variant(name):
    """The OpenCL runtime of the wrong fix ``name``: ``pack_args.h`` changed by CHANGES[name]."""
    return opencl_runtime().Variant(name, [fix.HEADER], CHANGES[name])


def install(name):
    """Select the OpenCL runtime built with the wrong fix ``name``; return the undo function."""
    runtime = opencl_runtime()
    runtime.select(variant(name))

    def uninstall():
        if not runtime.loaded():  # a loaded runtime stays for the process
            runtime.select(None)

    return uninstall
