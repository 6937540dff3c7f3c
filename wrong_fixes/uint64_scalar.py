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
"""Wrong fixes of the uint64-kernel-scalar report: variants of reference_fixes/uint64_scalar.py.

Each is an OpenCL runtime built with another change of ``pack_args.h`` (or none): only a launch
on an OpenCL device can tell them from the reference fix, so scripts/wrong_fixes.py judges them
where there is one (``NEEDS_OPENCL``).
"""

from reference_fixes import uint64_scalar as fix
from wrong_fixes import patched_install

NEEDS_OPENCL = True

WRONG_FIXES = {
    "uint32-slot": "uint64 takes the uint32 path: the value loses its high 32 bits",
    "int32-slot": "uint64 takes the int32 path: the value loses its high 32 bits",
    "cuda-runtime-only": "the conversion is fixed in CUDA's runtime, not in the header that "
    "OpenCL, ROCm, Vulkan and Metal share",
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


def _plain_runtime():
    return None


_PATCHES = {
    "uint32-slot": {"change_pack_args": _converting_to("INT64_TO_UINT32")},
    "int32-slot": {"change_pack_args": _converting_to("INT64_TO_INT32")},
    "cuda-runtime-only": {"variant": _plain_runtime},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    return patched_install(fix, _PATCHES[name])
