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
"""Blind round 9 (blind9b): wrong fixes of the WebGPU / Metal missing-type reference fix, each one
site or one condition of patch 0014 done wrong."""

WRONG_FIXES = {
    "blind9-uint64-internal": "WebGPU PrintType: the u64 ICHECK kept (only the i64 one converted)",
    "blind9-vector-lanes-internal": "WebGPU PrintType: the lanes ICHECK is kept (2 to 4 lanes)",
    "blind9-lanes-upper-3": "WebGPU PrintType: lanes > 3 refused (off by one: 4 lanes too)",
    "blind9-scalar-arg-internal": "WebGPU AddFunction: the pod argument InternalError is kept",
    "blind9-metal-float-only": "Metal PrintType: ValueError for floats only, integers internal",
    "blind9-metal-names-webgpu": "Metal PrintType: the copied message names the webgpu target",
    "blind9-element-type-named": "WebGPU PrintType: the message names a vector's element type",
    "blind9-uint64-float-reason": "WebGPU PrintType: the u64 branch gives the float reason",
    "blind9-u32-arg-refused": "WebGPU AddFunction: the u32 branch dropped (uint32 refused)",
}

EDITS = {
    "blind9-uint64-internal": [
        (
            'return None if bits != 64 else "WGSL has no 64-bit integers"',
            'return None if bits != 64 or code == _UINT else "WGSL has no 64-bit integers"',
        )
    ],
    "blind9-vector-lanes-internal": [('return "WGSL vectors have 2, 3 or 4 lanes"', "return None")],
    "blind9-lanes-upper-3": [
        ("if lanes != 1 and not 2 <= lanes <= 4:", "if lanes != 1 and not 2 <= lanes <= 3:")
    ],
    "blind9-scalar-arg-internal": [
        (
            '"CodeGenWebGPU: the webgpu target cannot pass a kernel argument of type "\n'
            '                    f"{dtype}: its scalar arguments are i32, u32 or f32"',
            "None",
        )
    ],
    "blind9-metal-float-only": [
        ("return not (bits in (1, 8, 16, 32, 64) and fits)", "return False")
    ],
    "blind9-metal-names-webgpu": [
        (
            'f"CodeGenMetal: the metal target cannot represent the type {dtype}"',
            'f"CodeGenMetal: the webgpu target cannot represent the type {dtype}"',
        )
    ],
    "blind9-element-type-named": [
        (
            'cannot represent the type {dtype}: {webgpu_lacks(dtype)}"',
            "cannot represent the type {dtype.split('x')[0]}: {webgpu_lacks(dtype)}\"",
        )
    ],
    "blind9-uint64-float-reason": [
        (
            'return None if bits != 64 else "WGSL has no 64-bit integers"',
            'return None if bits != 64 else (\n            "WGSL has f16 and f32 only" if code == '
            '_UINT else "WGSL has no 64-bit integers"\n        )',
        )
    ],
    "blind9-u32-arg-refused": [
        (
            'return dtype not in ("int32", "uint32", "float32")',
            'return dtype not in ("int32", "float32")',
        )
    ],
}
