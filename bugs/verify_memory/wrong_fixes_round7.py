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
"""Round-7 blind wrong fixes of the VerifyMemory alias fix (patches/0003): one mistake each, an
edit of the text of bugs/verify_memory/reference_fix.py (harness/wrong_fixes.py: EDITS); a
mistake an earlier round made already reuses its edit."""

from bugs.verify_memory.wrong_fixes import _DEVICE_ALLOCATION
from bugs.verify_memory.wrong_fixes import EDITS as FIRST

WRONG_FIXES = {
    "blind7-webgpu-not-gpu": "IsGPUDevice does not count kDLWebGPU",
    "blind7-first-param-only": (
        "the alias walk stops at a pointer parameter only when it is params[0]"
    ),
    "blind7-offset-not-followed": (
        "the alias walk follows buffer_data but not a byte offset / access_ptr / reinterpret"
    ),
    "blind7-address-of-access": "address_of(X[i]) is still visited as an access of X",
    "blind7-hostless-entry-skipped": (
        "every function whose target has no host is skipped, entry points too"
    ),
    "blind7-local-alloc-device": (
        "a local buffer the host code allocates is taken for device memory too"
    ),
    "blind7-cpu-annotation-ignored": (
        "a global host allocation annotated device_type kDLCPU is still device memory"
    ),
    "blind7-nested-extent-skipped": (
        "only the extent of the thread environment that opens the kernel is host code"
    ),
}

EDITS = {
    "blind7-webgpu-not-gpu": FIRST["no-webgpu"],
    "blind7-first-param-only": [
        (
            "            for p in self.func.params\n",
            "            for p in list(self.func.params)[:1]\n",
        )
    ],
    "blind7-offset-not-followed": FIRST["no-pointer-arithmetic"],
    # _is_address_of_load is False for every node: address_of(X[i]) is walked as a load of X
    "blind7-address-of-access": FIRST["address-of-access"],
    "blind7-hostless-entry-skipped": FIRST["skip-hostless"],
    "blind7-local-alloc-device": [(_DEVICE_ALLOCATION, "not _annotated_host_memory(annotations)")],
    "blind7-cpu-annotation-ignored": [(_DEVICE_ALLOCATION, 'scope_of(var) == "global"')],
    # only the kernel's own extent: neither the nested extents nor the shared.dyn size
    "blind7-nested-extent-skipped": FIRST["outermost-launch-only"],
}
