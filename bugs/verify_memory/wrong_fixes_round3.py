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
"""Third blind round: wrong fixes of verify_memory, each one small mistake in its reference fix.

The reference fix is bugs/verify_memory/reference_fix.py."""

from bugs.verify_memory import reference_fix as fix
from bugs.verify_memory.wrong_fixes import (
    _AddressOfAccess,
    _AddressOfIndexUnchecked,
    _blind_launch_parameters_outer,
    _checked_skip_hostless,
)
from bugs.verify_memory.wrong_fixes_round2 import _HandleParamsIgnored
from harness.tvm_line import WalkResult, ir, walk

WRONG_FIXES = {
    "blind3-first-param-only": "keeps the legacy rule: only params[0] counts as caller memory, "
    "not every pointer or buffer parameter",
    "blind3-outer-extent-only": "visits only the value of the thread_extent that opens a kernel "
    "as host code, not the extents of the launches nested in it",
    "blind3-no-shared-dyn-size": "forgets that a kernel's shared.dyn allocation shape is a "
    "launch parameter the host computes",
    "blind3-address-of-counts-access": "no address_of special case: address_of(X[i]) on the host "
    "is taken for an access of X",
    "blind3-address-of-skips-indices": "address_of(X[i]) is skipped whole: its indices (host "
    "code that may read device memory) are not visited",
    "blind3-no-webgpu": "IsGPUDevice is left without kDLWebGPU",
    "blind3-handle-param-not-pointer": "counts only buffer-typed parameters, not pointer "
    "(T.handle) parameters, as caller memory",
    "blind3-disable-lower-builtin-ignored": "a host global allocation counts as host memory only "
    "when annotated device_type kDLCPU, not with disable_lower_builtin",
    "blind3-hostless-entry-skipped": "skips every function whose target has no host, entry "
    "points (with a global_symbol) included",
}


class _FirstParamOnly(fix._MemoryAccessVerifier):
    def _is_pointer_param(self, var):
        params = list(self.func.params)
        return bool(params) and var.same_as(params[0])


def _no_shared_dyn(kernel):
    found = []

    def visit(node):
        if ir.is_thread_env(node):
            found.extend(fix._thread_extent(node))
        return WalkResult.ADVANCE

    walk(kernel, visit, order="pre")
    return found


def _device_type_only(annotations):
    found = annotations.get("device_type") if annotations is not None else None
    return isinstance(found, int | ir.IntImm) and int(found) == 1


PATCHES = {
    "blind3-first-param-only": {"_MemoryAccessVerifier": _FirstParamOnly},
    "blind3-outer-extent-only": {"_launch_parameters": _blind_launch_parameters_outer},
    "blind3-no-shared-dyn-size": {"_launch_parameters": _no_shared_dyn},
    "blind3-address-of-counts-access": {"_MemoryAccessVerifier": _AddressOfAccess},
    "blind3-address-of-skips-indices": {"_MemoryAccessVerifier": _AddressOfIndexUnchecked},
    "blind3-no-webgpu": {"_GPU_DEVICE_TYPES": (2, 4, 7, 8, 10)},
    "blind3-handle-param-not-pointer": {"_MemoryAccessVerifier": _HandleParamsIgnored},
    "blind3-disable-lower-builtin-ignored": {"_annotated_host_memory": _device_type_only},
    "blind3-hostless-entry-skipped": {"_checked": _checked_skip_hostless},
}
