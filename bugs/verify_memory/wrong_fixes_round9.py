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
"""Round 9 blind wrong fixes of the verify_memory report (blind9a).

Each is the reference fix (patch 0003: VerifyMemory follows buffer aliases to any pointer
parameter or host-allocated global buffer, checks a launch's sizes as host code, an address as
no access, webgpu like the other GPUs, and skips device-only helpers) with one step of the change
done wrong.
"""

WRONG_FIXES = {
    "blind9-vm-outer-extent-only": "visits the extent of the attribute that opens the kernel "
    "as host code, but not the extents of the thread attributes nested in it",
    "blind9-vm-no-shared-dyn": "visits the thread extents as host code but not the shape of "
    "the kernel's shared.dyn allocation (the launch's dynamic shared memory size)",
    "blind9-vm-address-of-accesses": "no CallNode visitor: address_of(X[i]) still counts as an "
    "access of X, so a host-declared view that only a kernel reads is rejected",
    "blind9-vm-address-of-no-indices": "the address_of visitor visits nothing of the load: a "
    "host load in the index of address_of(X[B[0]]) is missed",
    "blind9-vm-buffer-params-only": "counts BufferType parameters only: a pointer parameter "
    "(T.handle with a type) that a host view is declared over is missed",
    "blind9-vm-first-param-only": "keeps the legacy params[0] rule: only the first pointer "
    "parameter is followed to",
    "blind9-vm-no-webgpu": "IsGPUDevice still leaves out kDLWebGPU",
    "blind9-vm-entry-needs-host": "skips every function whose target has no host, entry points "
    "(with a global_symbol) included",
    "blind9-vm-disable-lower-builtin": "only the device_type kDLCPU annotation keeps a "
    "host-allocated global buffer in host memory: one with disable_lower_builtin is rejected",
}

EDITS = {
    "blind9-vm-outer-extent-only": [
        (
            "        if ir.is_thread_env(node):\n            found.extend",
            "        if ir.is_thread_env(node) and node.same_as(kernel):\n            found.extend",
        )
    ],
    "blind9-vm-no-shared-dyn": [
        (
            'if alloc is not None and scope_of(alloc[0]) == "shared.dyn":',
            'if alloc is not None and scope_of(alloc[0]) == "shared.dyn" and False:',
        )
    ],
    "blind9-vm-address-of-accesses": [
        ("        if _is_address_of_load(node):\n", "        if False:\n")
    ],
    "blind9-vm-address-of-no-indices": [
        (
            "            for index in node.args[0].indices:\n"
            '                walk(index, self._on_node, order="pre")\n',
            "",
        )
    ],
    "blind9-vm-buffer-params-only": [
        (
            "(ir.is_buffer_var(p) or isinstance(p.ty, ir.PointerType))",
            "ir.is_buffer_var(p)",
        )
    ],
    "blind9-vm-first-param-only": [
        ("for p in self.func.params\n", "for p in self.func.params[:1]\n")
    ],
    "blind9-vm-no-webgpu": [
        ("_GPU_DEVICE_TYPES = (2, 4, 7, 8, 10, 15)", "_GPU_DEVICE_TYPES = (2, 4, 7, 8, 10)")
    ],
    "blind9-vm-entry-needs-host": [
        (
            'return target.host is not None or attrs.get("global_symbol") is not None',
            "return target.host is not None",
        )
    ],
    "blind9-vm-disable-lower-builtin": [
        (
            'return value("device_type") == 1 or (value("disable_lower_builtin") or 0) != 0',
            'return value("device_type") == 1',
        )
    ],
}
