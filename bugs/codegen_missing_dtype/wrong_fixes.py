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
"""Wrong fixes of the codegen_missing_dtype report: variants of its reference fix.

Each is the text of bugs/codegen_missing_dtype/reference_fix.py with one step changed (the
targets it wraps, the types it takes for missing, the error it raises; harness/wrong_fixes.py:
EDITS). A type the wrong fix forgets stays the released internal error, as the C++ site it
forgot would.
"""

WRONG_FIXES = {
    "webgpu-only": "only CodeGenWebGPU is fixed: Metal's float64 stays an InternalError",
    "metal-only": "only CodeGenMetal is fixed: WebGPU's ICHECKs stay",
    "float64-only": "only a float64 (scalar or vector) becomes a ValueError: WebGPU's int64, "
    "uint64 and lane checks stay internal",
    "scalars-only": "only a scalar type becomes a ValueError: a vector of a missing type (and a "
    "vector of too many lanes) stays internal",
    "lanes-check-kept": "WebGPU's ICHECK on the vector lanes stays (the type checks are fixed)",
    "pod-argument-kept": "WebGPU's InternalError for a kernel scalar argument other than i32, "
    "u32 and f32 stays (PrintType alone is fixed)",
    "type-error": "the refusal is a TypeError, not the ValueError the description states",
    "type-not-named": "the ValueError names the target but not the type",
    "metal-rejects-64-bit": "Metal refuses every 64-bit type like WGSL, its long and ulong too",
}


# the first lines of the reference's two predicates, where a wrong fix adds a rule
_WEBGPU = (
    '    """Why WGSL (CodeGenWebGPU::PrintType) has no type ``dtype``, '
    'or None when it has one."""\n'
)
_METAL = '    """Whether Metal (CodeGenMetal::PrintType) has no type ``dtype``."""\n'
_NO_POD = ('return dtype not in ("int32", "uint32", "float32")', "return False")

EDITS = {
    "webgpu-only": [('TARGETS = ("webgpu", "metal")', 'TARGETS = ("webgpu",)')],
    "metal-only": [('TARGETS = ("webgpu", "metal")', 'TARGETS = ("metal",)')],
    "float64-only": [
        (
            _WEBGPU,
            _WEBGPU + '    if not dtype.startswith("float64"):\n        return None\n',
        ),
        (
            _METAL,
            _METAL + '    if not dtype.startswith("float64"):\n        return False\n',
        ),
        _NO_POD,
    ],
    "scalars-only": [
        (_WEBGPU, _WEBGPU + "    if _dtype(dtype)[2] != 1:\n        return None\n"),
        (_METAL, _METAL + "    if _dtype(dtype)[2] != 1:\n        return False\n"),
    ],
    "lanes-check-kept": [
        ('        return "WGSL vectors have 2, 3 or 4 lanes"', "        return None")
    ],
    "pod-argument-kept": [_NO_POD],
    "type-error": [
        (
            "            raise ValueError(message) from None",
            "            raise TypeError(message) from None",
        )
    ],
    "type-not-named": [
        (
            "            raise ValueError(message) from None",
            "            raise ValueError(\n"
            '                f"the {target} target cannot represent a type"\n'
            "            ) from None",
        )
    ],
    # Metal builds refuse every 64-bit type before the build; WebGPU as the reference fix
    "metal-rejects-64-bit": [
        (
            "        try:\n            return original(mod, target_obj)",
            '        for _, func in mod.functions.items() if target == "metal" else ():\n'
            "            if not isinstance(func, ir.PrimFunc):\n"
            "                continue\n"
            "            params = [_prim_dtype(p.ty) for p in func.params]\n"
            "            for dtype in [d for d in params if d] + _body_dtypes(func):\n"
            "                if metal_lacks(dtype) or _dtype(dtype)[1] == 64:\n"
            "                    raise ValueError(\n"
            '                        f"CodeGenMetal: the metal target cannot represent "\n'
            '                        f"the type {dtype}"\n'
            "                    )\n"
            "        try:\n            return original(mod, target_obj)",
        )
    ],
}
