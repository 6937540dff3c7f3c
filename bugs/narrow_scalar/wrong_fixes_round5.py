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
"""Blind round 5 wrong fixes of the narrow kernel scalar report (patches/0004), each the
reference fix's own text with one step changed (harness/wrong_fixes.py: EDITS)."""

WRONG_FIXES = {
    "blind5-unsigned-as-int32": "uint8/uint16 scalars are widened to int32 instead of uint32",
    "blind5-bool-kept-narrow": "bool is left out of the widening (only int codes become int32)",
    "blind5-bfloat16-kept-narrow": "only float16 is widened to float32; bfloat16 stays narrow",
    "blind5-named-launch-offset-0": "a launch by symbol (call_ffi_kernel) casts args[i], "
    "forgetting the symbol at args[0]",
    "blind5-kernel-keyed-by-name-only": "widened kernels are looked up by GlobalVar name only, "
    "not by global_symbol: a launch naming a module kernel's own symbol is not cast",
    "blind5-widen-non-cpu-devices": "kernels are widened on every non-CPU device "
    "(ext_dev, Hexagon too), not only those a device runtime launches",
    "blind5-first-call-site-only": "each widened kernel's call sites are consumed: only its "
    "first launch gets the casts",
    "blind5-entry-after-decls": "the kernel's Bind(x, Cast(narrow, x_wide)) goes after its "
    "leading buffer declarations instead of before them",
}

EDITS = {
    "blind5-unsigned-as-int32": [
        ("    if code in (_INT, _BOOL):", "    if code in (_INT, _BOOL, _UINT):")
    ],
    "blind5-bool-kept-narrow": [("    if code in (_INT, _BOOL):", "    if code == _INT:")],
    "blind5-bfloat16-kept-narrow": [
        (
            "    if (code == _FLOAT and t.bits == 16) or code == _BFLOAT:",
            "    if code == _FLOAT and t.bits == 16:",
        )
    ],
    "blind5-named-launch-offset-0": [("            first = 1\n", "            first = 0\n")],
    "blind5-kernel-keyed-by-name-only": [
        ("            if symbol is not None:\n                kernels[str(symbol)] = widened\n", "")
    ],
    "blind5-widen-non-cpu-devices": [
        (
            "    return launched_by_device_runtime(target)",
            "    return int(target.get_target_device_type()) != 1",
        )
    ],
    "blind5-first-call-site-only": [
        ("kernels.get(op.name_hint)", "kernels.pop(op.name_hint, None)"),
        ("kernels.get(symbol)", "kernels.pop(symbol, None)"),
    ],
    "blind5-entry-after-decls": [
        (
            "        body = ir.SeqStmt([*entry, *rest])",
            "        k = 0\n"
            "        while k < len(rest) and _is_declaration(rest[k]):\n"
            "            k += 1\n"
            "        body = ir.SeqStmt([*rest[:k], *entry, *rest[k:]])",
        ),
        (
            "def _cast_args(args, first, widened):",
            "def _is_declaration(stmt):\n"
            "    if ir.DeclBuffer is not None and isinstance(stmt, ir.DeclBuffer):\n"
            "        return True\n"
            '    value = getattr(stmt, "value", None)  # tvm-tirx: Bind(v, decl_tensor(...))\n'
            "    return (\n"
            "        isinstance(stmt, ir.Bind)\n"
            "        and isinstance(value, ir.Call)\n"
            '        and getattr(value.op, "name", "") == "tirx.decl_tensor"\n'
            "    )\n"
            "\n"
            "\n"
            "def _cast_args(args, first, widened):",
        ),
    ],
}
