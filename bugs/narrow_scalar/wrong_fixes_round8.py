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
"""Blind round 8 (blind8b): wrong fixes of the narrow kernel scalar report, each the reference
fix's text with one step of the C++ patch (NarrowScalarLaunchType, WidenNarrowScalarParams,
the launch's casts in LowerDeviceKernelLaunches) changed."""

WRONG_FIXES = {
    "blind8-below-16-bits-only": "NarrowScalarLaunchType tests bits() >= 16 for bits() >= 32: "
    "8-bit scalars and bool are widened, int16, uint16, float16 and bfloat16 stay narrow",
    "blind8-bool-as-uint32": "bool is matched with the unsigned codes: a bool scalar travels as "
    "uint32 where the patch passes it as int32",
    "blind8-bfloat16-kept": "only kDLFloat 16 becomes float32; the kDLBfloat 16 sibling is "
    "forgotten and a bfloat16 kernel scalar stays narrow",
    "blind8-unsigned-as-int32": "unsigned narrow scalars are widened to int32 (PrimType::Int(32)) "
    "instead of uint32",
    "blind8-launch-not-cast": "the kernel's parameter is widened but the launch still passes the "
    "narrow value (the Cast(wide, arg) at the call site is left out)",
    "blind8-module-kernel-kept": "only kernels SplitHostDevice split out are widened; a kernel "
    "written as a module function (given the launch calling convention) keeps its narrow params",
    "blind8-first-narrow-only": "WidenNarrowScalarParams stops after the first narrow parameter: "
    "a kernel's second narrow scalar stays narrow",
    "blind8-entry-after-decls": "the narrowing bindings are inserted in front of the kernel's "
    "launch (its last statement), after its buffer declarations, not at the kernel's entry",
    "blind8-cpu-kernels-widened": "the IsLaunchedByDeviceRuntime check is left out of the kernel "
    "rewrite: kernels of CPU targets (called as functions) get widened parameters too",
}

EDITS = {
    "blind8-below-16-bits-only": [
        ("if t.lanes != 1 or t.bits >= 32:", "if t.lanes != 1 or t.bits >= 16:"),
    ],
    "blind8-bool-as-uint32": [
        ("    if code in (_INT, _BOOL):\n", "    if code == _INT:\n"),
        ("    if code == _UINT:\n", "    if code in (_UINT, _BOOL):\n"),
    ],
    "blind8-bfloat16-kept": [
        ("if code in (_FLOAT, _BFLOAT) and t.bits == 16:", "if code == _FLOAT and t.bits == 16:"),
    ],
    "blind8-unsigned-as-int32": [
        ('        return "uint32"\n', '        return "int32"\n'),
    ],
    "blind8-launch-not-cast": [
        ("    return ir.Cast(wide, value)\n", "    return value\n"),
    ],
    "blind8-module-kernel-kept": [
        (
            "return gvar.name_hint not in known or (conv is not None and int(conv) == "
            "_DEVICE_KERNEL_LAUNCH)",
            "return gvar.name_hint not in known",
        ),
    ],
    "blind8-first-narrow-only": [
        ("        if wide is None:\n", "        if wide is None or widened:\n"),
    ],
    "blind8-entry-after-decls": [
        (
            "        body = ir.SeqStmt([*entry, *rest])\n",
            "        body = ir.SeqStmt([*rest[:-1], *entry, rest[-1]])\n",
        ),
    ],
    "blind8-cpu-kernels-widened": [
        ("        if not _launched_by_runtime(func):\n            continue\n", ""),
    ],
}
