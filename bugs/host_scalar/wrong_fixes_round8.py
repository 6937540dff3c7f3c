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
"""Round 8 blind wrong fixes of the host-level scalar fix (blind8a): each is the reference fix
with one step of the C++ patch (patches/0002) done wrong."""

WRONG_FIXES = {
    "blind8-global-candidate": "Classify takes every allocation of the host code as a candidate, "
    '"global" ones too, not only "local" ones',
    "blind8-first-dim-cell": "IsSingleElement tests only a one-dimensional buffer of extent 1: "
    "a one-element cell of more than one dimension read by a kernel is rejected",
    "blind8-index-unchecked": "IsSingleElement tests the buffer's shape but not that each index "
    "is zero: a kernel load at a computed index is passed by value",
    "blind8-vector-cell-by-value": "IsSingleElement does not test that the dtype is a scalar: a "
    "one-element vector cell read by a kernel is passed by value instead of rejected",
    "blind8-reject-before-device": "Classify rejects a kernel's pointer use before it skips the "
    "buffers the host code does not use: a cell that one kernel writes and another reads is "
    "rejected",
    "blind8-view-decl-host-use": "the host's DeclBuffer of a view visits its data like any "
    "statement: declaring a view counts as a host use of the buffer",
    "blind8-last-pointer-use-named": "a later kernel use that needs the pointer overwrites "
    "kernel_needs_pointer: the rejection names the last use, not the first",
    "blind8-any-device-type": "LowerTVMBuiltin accepts any integer device_type annotation and "
    "lowers it on the CPU instead of rejecting values other than kDLCPU",
    "blind8-device-id-enclosing": "LowerTVMBuiltin relocates the annotated allocation to kDLCPU "
    "but keeps the enclosing device_id instead of device id 0",
    "blind8-stack-rule-enclosing": "LowerTVMBuiltin's CPU stack rule still reads the enclosing "
    "device_type_: an annotated small global allocation of a GPU function becomes a workspace",
    "blind8-no-webgpu": "IsLaunchedByDeviceRuntime leaves WebGPU out of the device runtimes",
    "blind8-tensor-host-use": "a tensor the host makes of the buffer for a call "
    "(tvm_stack_make_array) counts as a host use",
}

EDITS = {
    "blind8-global-candidate": [
        (
            'return scope_of(allocation(alloc)[0]) == "local"',
            'return scope_of(allocation(alloc)[0]) in ("local", "global")',
        )
    ],
    "blind8-first-dim-cell": [
        (
            "and _constant_elements(buffer) == 1\n",
            "and len(buffer.ty.shape) == 1\n        and _constant_elements(buffer) == 1\n",
        )
    ],
    "blind8-index-unchecked": [
        (
            "and _constant_elements(buffer) == 1\n"
            "        and all(isinstance(i, ir.IntImm) and i.value == 0 for i in load.indices)\n",
            "and _constant_elements(buffer) == 1\n",
        )
    ],
    "blind8-vector-cell-by-value": [
        ("dtype.lanes == 1\n        and _constant_elements", "_constant_elements"),
    ],
    "blind8-reject-before-device": [
        (
            '    if kernel and not host:\n        return "device"  # device memory shared by '
            "kernels, as today\n    if kernel and needs_pointer is not None:\n        return "
            '"reject"\n',
            '    if kernel and needs_pointer is not None:\n        return "reject"\n    if kernel '
            'and not host:\n        return "device"  # device memory shared by kernels, as today\n',
        )
    ],
    "blind8-view-decl-host-use": [
        (
            "                for operand in _view_operands(data):\n"
            "                    walk_from(operand)\n",
            "                walk_from(data)\n",
        )
    ],
    "blind8-last-pointer-use-named": [
        ("if how is not None and entry[2] is None:", "if how is not None:"),
    ],
    "blind8-any-device-type": [
        (
            "if not isinstance(value, int | ir.IntImm) or int(value) != _KDLCPU:",
            "if not isinstance(value, int | ir.IntImm):",
        )
    ],
    "blind8-device-id-enclosing": [("    return _KDLCPU, 0\n", "    return _KDLCPU, None\n")],
    "blind8-stack-rule-enclosing": [
        ("stack = _stays_on_stack(buffer)", "stack = False"),
    ],
    "blind8-no-webgpu": [
        (
            "target.host is not None and launched_by_device_runtime(target)\n",
            "target.host is not None and launched_by_device_runtime(target)"
            ' and target.kind.name != "webgpu"\n',
        )
    ],
    "blind8-tensor-host-use": [("on_tensor=on_tensor,\n    )", "on_tensor=on_host,\n    )")],
}
