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
"""Wrong fixes of the narrow kernel scalar report, each the reference fix's own text
(bugs/narrow_scalar/reference_fix.py) with one step changed (which dtypes are widened and to
what, what the host passes, how the kernel gets the narrow value back, which kernels):
harness/wrong_fixes.py's EDITS. The later rounds' modules reuse these edits where their mistake
is one of them.
"""

WRONG_FIXES = {
    "floats-only": "widens float16/bfloat16 only: int8, int16, uint8, uint16, bool stay narrow",
    "ints-only": "widens the integer types and bool only: float16/bfloat16 stay narrow",
    "skip-bool": "widens every narrow type except bool (bool is not an int or uint dtype)",
    "widen-to-64": "widens to 64 bits (float64, int64, uint64) instead of 32",
    "no-host-cast": "widens the kernel parameter, the host passes the narrow value uncast",
    "no-narrowing": "the kernel computes with the wide parameter instead of narrowing it back",
    "cpu-kernels-too": "also widens kernels called directly on the CPU (no runtime packs them)",
    "no-bfloat16": "float16 is widened to float32, bfloat16 stays narrow",
    "cuda-and-rocm-only": "only CUDA and ROCm kernels are widened: OpenCL, Vulkan, Metal and "
    "WebGPU kernels keep their narrow parameters",
    "first-param-only": "the launch casts only the kernel's first widened parameter: a second "
    "narrow scalar is passed narrow to its wide parameter",
    "split-kernels-only": "only the kernels SplitHostDevice splits out are widened: a kernel "
    "written as a module function and launched by the host keeps its narrow parameters",
    "blind-unsigned-as-int32": "unsigned narrow scalars (uint8, uint16) travel as int32, not "
    "uint32",
    "blind-bits-gt-32": "the width test is bits > 32: int32 and uint32 parameters are rebound "
    "through a 32-bit copy of themselves",
    "blind-name-not-symbol": "the launches are matched by the kernel's GlobalVar name, not its "
    "global symbol: a module kernel whose symbol differs is launched with uncast narrow values",
    "blind-symbol-args-offset": "a launch naming the kernel by its symbol is cast from its first "
    "argument (the symbol) on: every widened argument is off by one",
    "blind-first-launch-only": "only the first launch of each kernel is cast: a kernel the host "
    "launches twice gets the narrow value at its second launch",
}

# the steps of the reference fix that the edits change
INT_RULE = "    if code in (_INT, _BOOL):"  # _wide_dtype: the signed integers and bool
FLOAT_RULE = "code in (_FLOAT, _BFLOAT) and t.bits == 16"  # _wide_dtype: the floats
RUNTIME = "    return launched_by_device_runtime(target)"  # _launched_by_runtime
BIND = "    return [ir.Bind(param, ir.Cast(str(param.ty), wide_param))], {}"  # _kernel_entry

EDITS = {
    "floats-only": [
        (INT_RULE + '\n        return "int32"\n    if code == _UINT:\n', "    if False:\n")
    ],
    "ints-only": [(FLOAT_RULE, "False")],
    "skip-bool": [(INT_RULE, "    if code == _INT:")],
    "widen-to-64": [
        ('return "int32"', 'return "int64"'),
        ('return "uint32"', 'return "uint64"'),
        ('return "float32"', 'return "float64"'),
    ],
    "no-host-cast": [("    return ir.Cast(wide, value)", "    return value")],
    "no-narrowing": [(BIND, "    return [], {param: wide_param}")],
    "cpu-kernels-too": [('(W1 applies)."""\n', '(W1 applies)."""\n    return True\n')],
    "no-bfloat16": [(FLOAT_RULE, "code == _FLOAT and t.bits == 16")],
    "cuda-and-rocm-only": [
        (
            "    if target is None:\n        return False\n" + RUNTIME,
            '    return kernel.attrs["target"].kind.name in ("cuda", "rocm")',
        )
    ],
    "first-param-only": [
        ("    for i, wide in widened.items():", "    for i, wide in list(widened.items())[:1]:")
    ],
    "split-kernels-only": [(" or (conv is not None and int(conv) == _DEVICE_KERNEL_LAUNCH)", "")],
    "blind-unsigned-as-int32": [('return "uint32"', 'return "int32"')],
    "blind-bits-gt-32": [("t.bits >= 32:", "t.bits > 32:")],
    "blind-name-not-symbol": [
        ("            if symbol is not None:\n                kernels[str(symbol)] = widened\n", "")
    ],
    "blind-symbol-args-offset": [
        ("_cast_args(call.args, 1, widened)", "_cast_args(call.args, 0, widened)")
    ],
    "blind-first-launch-only": [
        ("    def on_call(call):\n", "    seen = set()\n\n    def on_call(call):\n"),
        (
            "        if not widened:\n            return call\n",
            "        if not widened or symbol in seen:\n"
            "            return call\n"
            "        seen.add(symbol)\n",
        ),
    ],
}
