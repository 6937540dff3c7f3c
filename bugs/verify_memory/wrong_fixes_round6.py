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
"""Blind round 6 wrong fixes of the VerifyMemory reference fix."""

from bugs.verify_memory import reference_fix as fix
from harness.tvm_line import WalkResult, allocation, ir, scope_of, walk
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind6-first-param-only": "the alias walk accepts only params[0] as a parameter (legacy rule)",
    "blind6-no-webgpu": "IsGPUDevice is left without kDLWebGPU (15)",
    "blind6-address-of-accesses": "address_of(X[i]) is visited as a load of X (no Call visitor)",
    "blind6-helper-checked": "a no-global_symbol function of a host-less target is still checked",
    "blind6-local-alloc-device": "every host AllocBuffer counts as device memory, local cells too",
    "blind6-nested-extent-device": "only the kernel-opening thread_extent's value is host code",
}


class _FirstParamOnly(fix._MemoryAccessVerifier):
    def _is_pointer_param(self, var):
        params = list(self.func.params)[:1]  # mistake: the packed API's first handle alone
        return any(
            var.same_as(p) and (ir.is_buffer_var(p) or isinstance(p.ty, ir.PointerType))
            for p in params
        )


class _AddressOfAccesses(fix._MemoryAccessVerifier):
    def _on_node(self, node):
        if fix._is_address_of_load(node):
            return WalkResult.ADVANCE  # mistake: the load inside address_of is visited
        return super()._on_node(node)


class _LocalAllocDevice(fix._MemoryAccessVerifier):
    @staticmethod
    def _is_device_allocation(var, annotations):
        return scope_of(var) in ("global", "local") and not fix._annotated_host_memory(annotations)


def _outer_extent_only(kernel):
    found = list(fix._thread_extent(kernel))  # mistake: nested extents stay device code

    def visit(node):
        alloc = allocation(node)
        if alloc is not None and scope_of(alloc[0]) == "shared.dyn":
            found.extend(alloc[0].ty.shape)
        return WalkResult.ADVANCE

    walk(kernel, visit, order="pre")
    return found


def _checked_helpers_too(func):
    attrs = func.attrs
    target = attrs.get("target") if attrs is not None else None
    if target is None:
        return False
    calling_conv = attrs.get("calling_conv")
    if calling_conv is not None and int(calling_conv) != 0:
        return False
    return target.get_target_device_type() in fix._GPU_DEVICE_TYPES  # mistake: no rule 5


_PATCHES = {
    "blind6-first-param-only": {"_MemoryAccessVerifier": _FirstParamOnly},
    "blind6-no-webgpu": {"_GPU_DEVICE_TYPES": (2, 4, 7, 8, 10)},
    "blind6-address-of-accesses": {"_MemoryAccessVerifier": _AddressOfAccesses},
    "blind6-helper-checked": {"_checked": _checked_helpers_too},
    "blind6-local-alloc-device": {"_MemoryAccessVerifier": _LocalAllocDevice},
    "blind6-nested-extent-device": {"_launch_parameters": _outer_extent_only},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
