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
"""Wrong fixes of the narrow kernel scalar report (blind round 2): each one small mistake in
one step of bugs/narrow_scalar/reference_fix.py (W1 of the C++ patch 0004).

Each is the reference fix's text with that step changed (harness/wrong_fixes.py: EDITS),
an edit of wrong_fixes.py's or an earlier round's where the mistake is the same.
"""

from bugs.narrow_scalar.wrong_fixes import EDITS as FIRST
from bugs.narrow_scalar.wrong_fixes import RUNTIME

WRONG_FIXES = {
    "blind2-launch-arg-off-by-one": (
        "the launch looks up each argument's wide type at its position in the launch call, "
        "kernel name included (params[i] against call_args[i]): the argument before a narrow "
        "scalar is cast instead of it"
    ),
    "blind2-split-kernels-only": (
        "only the kernels SplitHostDevice splits out are widened: a kernel written as a module "
        "function (calling_conv kDeviceKernelLaunch) keeps its narrow parameters"
    ),
    "blind2-webgpu-forgotten": (
        "the device-runtime predicate lists CUDA, ROCm, OpenCL, Vulkan and Metal but not "
        "WebGPU: a WebGPU kernel keeps its narrow parameters"
    ),
    "blind2-non-cpu-widened": (
        "the predicate is 'the kernel's device is not the CPU': ext_dev and Hexagon kernels, "
        "called as functions, get widened parameters too"
    ),
    "blind2-other-floats-to-float32": (
        "every floating-point scalar narrower than 32 bits travels as float32, the float8, "
        "float6 and float4 formats included, not only float16 and bfloat16"
    ),
    "blind2-entry-after-decls": (
        "the kernel's entry bindings are placed after its leading buffer declarations, whose "
        "shapes may use the narrow scalar, instead of first"
    ),
    "blind2-uint-as-int32": (
        "unsigned narrow scalars are grouped with the signed ones (as APIType groups them) and "
        "travel as int32, not uint32"
    ),
    "blind2-caller-target": (
        "the launch decides whether to widen from the caller's (host) target, not the "
        "kernel's: the host passes the narrow value to the widened parameter"
    ),
}


# the kernel's entry bindings go after its leading buffer declarations (apache/tvm's DeclBuffer,
# tvm-tirx's Bind of a decl_tensor), whose shapes may use the narrow scalar
AFTER_DECLS = [
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
        '    value = getattr(stmt, "value", None)\n'
        "    return (\n"
        "        isinstance(stmt, ir.Bind)\n"
        "        and isinstance(value, ir.Call)\n"
        "        and isinstance(value.op, ir.Op)\n"
        '        and value.op.name == "tirx.decl_tensor"\n'
        "    )\n"
        "\n"
        "\n"
        "def _cast_args(args, first, widened):",
    ),
]

EDITS = {
    "blind2-launch-arg-off-by-one": FIRST["blind-symbol-args-offset"],
    "blind2-split-kernels-only": FIRST["split-kernels-only"],
    "blind2-webgpu-forgotten": [
        (RUNTIME, "    return int(target.get_target_device_type()) in (2, 4, 7, 8, 10)")
    ],
    "blind2-non-cpu-widened": [(RUNTIME, "    return int(target.get_target_device_type()) != 1")],
    "blind2-other-floats-to-float32": [
        (
            '        return "float32"\n    return None\n',
            '        return "float32"\n    return "float32"\n',
        )
    ],
    "blind2-entry-after-decls": AFTER_DECLS,
    "blind2-uint-as-int32": FIRST["blind-unsigned-as-int32"],
    # the launches are rewritten only in callers whose own target launches through a device
    # runtime (the host never does): the caller's target decides
    "blind2-caller-target": [
        (
            'makes."""\n',
            'makes."""\n    if not _launched_by_runtime(func):\n        return func\n',
        )
    ],
}
