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
"""Third blind round: wrong fixes of codegen_missing_dtype (WebGPU/Metal lack a type).

Each is the text of ``bugs/codegen_missing_dtype/reference_fix.py`` with one step changed
(harness/wrong_fixes.py: EDITS). They serve both TVM lines, as the reference fix does
(``harness/tvm_line.py``)."""

WRONG_FIXES = {
    "blind3-uint64-internal": "webgpu_lacks refuses 64 bits for signed integers only: a uint64 "
    "buffer is still refused with the internal error",
    "blind3-metal-no-long": "metal_lacks counts int64/uint64 as missing on Metal (integer widths "
    "1, 8, 16, 32 only): a kernel with an int64 buffer and a float64 one is refused naming int64, "
    "a type Metal has",
    "blind3-first-function-only": "missing_type_error looks at the module's first function only: a "
    "missing type in a second kernel is still refused with the internal error",
    "blind3-params-only": "missing_type_error looks at the parameters' types only, not the body: a "
    "float64 intermediate between float32 buffers is still refused with the internal error",
    "blind3-scalar-args-as-storage": "a WebGPU kernel's scalar arguments are checked with "
    "webgpu_lacks (types WGSL has) instead of webgpu_cannot_pass (i32, u32, f32): a float16 "
    "argument is still refused with the internal error",
    "blind3-vector-lanes-ignored": "webgpu_lacks does not check the lanes: a float32x8 vector is "
    "still refused with the internal error",
    "blind3-scan-before-build": "the module is scanned for a missing type before the code "
    "generator runs (one check before code generation), not only after it fails: a valid WebGPU "
    "kernel whose int64 arithmetic the code generator narrows is refused",
}


EDITS = {
    "blind3-uint64-internal": [
        (
            "    if code in (_INT, _UINT):  # a bool vector matches neither code: no such type\n"
            '        return None if bits != 64 else "WGSL has no 64-bit integers"',
            "    if code == _INT:\n"
            '        return None if bits != 64 else "WGSL has no 64-bit integers"\n'
            "    if code == _UINT:  # the mistake: u64 let through\n"
            "        return None",
        )
    ],
    "blind3-metal-no-long": [("bits in (1, 8, 16, 32, 64)", "bits in (1, 8, 16, 32)")],
    "blind3-first-function-only": [
        (
            "for _, func in mod.functions.items():",
            "for _, func in list(mod.functions.items())[:1]:",
        )
    ],
    "blind3-params-only": [("body = _body_dtypes(func)", "body = []")],
    "blind3-scalar-args-as-storage": [
        ("if webgpu_cannot_pass(dtype):", "if webgpu_lacks(dtype) is not None:")
    ],
    "blind3-vector-lanes-ignored": [
        (
            "    if lanes != 1 and not 2 <= lanes <= 4:\n"
            '        return "WGSL vectors have 2, 3 or 4 lanes"\n',
            "",
        )
    ],
    "blind3-scan-before-build": [
        (
            "        try:\n            return original(mod, target_obj)",
            "        message = missing_type_error(target, mod)  # the mistake: before the build\n"
            "        if message is not None:\n"
            "            raise ValueError(message)\n"
            "        try:\n            return original(mod, target_obj)",
        )
    ],
}
