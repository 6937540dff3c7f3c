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
"""Round 8 blind wrong fixes of the VerifyMemory fix (blind8a): each is the reference fix with
one step of the C++ patch (patches/0003) done wrong."""

WRONG_FIXES = {
    "blind8-buffer-params-only": "pointer_params_ takes the BufferType parameters only: memory "
    "reached from a T.handle pointer parameter is not the caller's",
    "blind8-first-param-only": "pointer_params_ takes the first parameter only (the legacy "
    "params[0] rule kept): a view of the second buffer parameter is unchecked",
    "blind8-address-of-not-followed": "PointsInto does not follow address_of(X[i]): a view "
    "declared at an element's address of a parameter is taken for internal memory",
    "blind8-address-of-is-access": "no VisitExpr_ for address_of: the address of an element "
    "counts as a host load, rejecting a host view that only a kernel reads",
    "blind8-nested-extent-in-kernel": "only the extent of the thread_extent that opens the "
    "kernel is visited as host code, not the extents nested in the kernel",
    "blind8-no-shared-dyn-size": "the shape of a kernel's shared.dyn allocation (the launch's "
    "dynamic shared memory size) is not visited as host code",
    "blind8-local-alloc-is-device": 'device_allocations_ takes "local" host allocations too, '
    'not only "global" ones: a host cell stored by the host is rejected',
    "blind8-device-type-annotation-ignored": "IsAnnotatedHostMemory looks at "
    "disable_lower_builtin only, not at device_type kDLCPU",
    "blind8-disable-lower-builtin-zero": "IsAnnotatedHostMemory takes the presence of "
    "disable_lower_builtin for host memory, its value 0 included",
    "blind8-no-webgpu": "IsGPUDevice still leaves kDLWebGPU out",
    "blind8-hostless-entry-skipped": "every function whose target has no host is skipped, "
    "entry points (with a global_symbol) included",
}

EDITS = {
    "blind8-buffer-params-only": [
        (
            "var.same_as(p) and (ir.is_buffer_var(p) or isinstance(p.ty, ir.PointerType))",
            "var.same_as(p) and ir.is_buffer_var(p)",
        )
    ],
    "blind8-first-param-only": [
        ("            for p in self.func.params\n", "            for p in self.func.params[:1]\n")
    ],
    "blind8-address-of-not-followed": [
        (
            "    return pointer_base(value, _POINTER_OPERAND)",
            "    if _is_address_of_load(value):\n        return None\n"
            "    return pointer_base(value, _POINTER_OPERAND)",
        )
    ],
    "blind8-address-of-is-access": [
        ("        if _is_address_of_load(node):", "        if False and _is_address_of_load(node):")
    ],
    "blind8-nested-extent-in-kernel": [
        (
            "            found.extend(_thread_extent(node))",
            "            if node.same_as(kernel):\n"
            "                found.extend(_thread_extent(node))",
        )
    ],
    "blind8-no-shared-dyn-size": [
        ("            found.extend(alloc[0].ty.shape)", "            pass")
    ],
    "blind8-local-alloc-is-device": [
        (
            'return scope_of(var) == "global" and not',
            'return scope_of(var) in ("global", "local") and not',
        )
    ],
    "blind8-device-type-annotation-ignored": [
        (
            'return value("device_type") == 1 or (value("disable_lower_builtin") or 0) != 0',
            'return (value("disable_lower_builtin") or 0) != 0',
        )
    ],
    "blind8-disable-lower-builtin-zero": [
        (
            'return value("device_type") == 1 or (value("disable_lower_builtin") or 0) != 0',
            'return value("device_type") == 1 or value("disable_lower_builtin") is not None',
        )
    ],
    "blind8-no-webgpu": [
        ("_GPU_DEVICE_TYPES = (2, 4, 7, 8, 10, 15)", "_GPU_DEVICE_TYPES = (2, 4, 7, 8, 10)")
    ],
    "blind8-hostless-entry-skipped": [
        (
            'return target.host is not None or attrs.get("global_symbol") is not None',
            "return target.host is not None",
        )
    ],
}
