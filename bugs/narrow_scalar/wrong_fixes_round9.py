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
"""Blind round 9 (blind9b): wrong fixes of the narrow kernel scalar reference fix, each one step
of the C++ patch's NarrowScalarLaunchType / WidenNarrowScalarParams / launch loop done wrong."""

WRONG_FIXES = {
    "blind9-bool-kept": "a bool kernel scalar is not widened (only kDLInt matched, not kDLBool)",
    "blind9-bfloat16-kept": "bfloat16 kernel scalars are not widened (only kDLFloat 16 matched)",
    "blind9-uint-as-int32": "unsigned narrow scalars travel as int32 instead of uint32",
    "blind9-32bit-rebound": "bits > 32 instead of >= 32: 32-bit scalars are rebound at the entry",
    "blind9-host-uncast": "the kernel parameter is widened, the launch passes the narrow value",
    "blind9-arg-offset": "the launch casts args[i] counting the kernel's symbol as argument 0",
    "blind9-bind-after-body": "the narrowing bindings are appended after the kernel body",
    "blind9-module-kernels-kept": "only kernels SplitHostDevice splits out are widened, not "
    "kernels written as module functions",
    "blind9-cpu-widened": "kernels of CPU-like targets are widened too (no runtime check)",
    "blind9-narrow-to-wide": "the entry binding casts the wide parameter to the wide type",
}

EDITS = {
    "blind9-bool-kept": [("if code in (_INT, _BOOL):", "if code == _INT:")],
    "blind9-bfloat16-kept": [
        ("if code in (_FLOAT, _BFLOAT) and t.bits == 16:", "if code == _FLOAT and t.bits == 16:")
    ],
    "blind9-uint-as-int32": [('return "uint32"', 'return "int32"')],
    "blind9-32bit-rebound": [("t.bits >= 32", "t.bits > 32")],
    "blind9-host-uncast": [("return ir.Cast(wide, value)", "return value")],
    "blind9-arg-offset": [
        ("_cast_args(call.args, 1, widened)", "_cast_args(call.args, 0, widened)")
    ],
    "blind9-bind-after-body": [
        ("body = ir.SeqStmt([*entry, *rest])", "body = ir.SeqStmt([*rest, *entry])")
    ],
    "blind9-module-kernels-kept": [
        (
            "return gvar.name_hint not in known or (conv is not None and int(conv) == "
            "_DEVICE_KERNEL_LAUNCH)",
            "return gvar.name_hint not in known",
        )
    ],
    "blind9-cpu-widened": [("return launched_by_device_runtime(target)", "return True")],
    "blind9-narrow-to-wide": [
        (
            "ir.Bind(param, ir.Cast(str(param.ty), wide_param))",
            "ir.Bind(param, ir.Cast(str(wide_param.ty), wide_param))",
        )
    ],
}
