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
"""Blind round 5 wrong fixes of the VerifyMemory report (patches/0003)."""

from bugs.verify_memory import reference_fix as fix
from harness.tvm_line import WalkResult, allocation, ir, scope_of, walk
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-first-param-only": "the alias walk stops at params[0] only (the legacy rule): an "
    "alias of the second buffer parameter is taken for an internal allocation",
    "blind5-address-of-is-access": "address_of(X[i]) is visited as a load of X: a host view "
    "at an address that only a kernel reads is rejected",
    "blind5-webgpu-unchecked": "kDLWebGPU is not added to the GPU devices: webgpu host "
    "accesses still pass",
    "blind5-outer-extent-only": "only the extent of the thread environment that opens the "
    "kernel is host code; nested thread_extent values stay device code",
    "blind5-disable-lower-builtin-ignored": "a host global allocation annotated "
    "disable_lower_builtin is still counted as device memory (only device_type kDLCPU exempts)",
    "blind5-alias-one-step": "the definition chain is followed one step, not to a fixpoint: a "
    "view of a view of a parameter is not traced",
    "blind5-device-helpers-checked": "functions with neither a host nor a global_symbol "
    "(device helpers) are still checked",
    "blind5-local-alloc-as-device": "every host allocation, local ones included, is counted as "
    "device memory, not only global ones",
}


class _FirstParamOnly(fix._MemoryAccessVerifier):
    def _is_pointer_param(self, var):
        params = list(self.func.params)[:1]  # mistake: the legacy params[0] rule
        return any(
            var.same_as(p) and (ir.is_buffer_var(p) or isinstance(p.ty, ir.PointerType))
            for p in params
        )


class _AddressOfIsAccess(fix._MemoryAccessVerifier):
    def _on_node(self, node):
        if ir.is_thread_env(node):
            for value in fix._launch_parameters(node):
                walk(value, self._on_node, order="pre")
            return WalkResult.SKIP
        # mistake: no special case for address_of(X[i]); its load is recorded as an access
        found = allocation(node)
        if found is not None and self._is_device_allocation(*found):
            self.device_allocations.append(found[0])
        if isinstance(node, ir.Bind):
            self.defs[node.var] = node.value
        elif ir.DeclBuffer is not None and isinstance(node, ir.DeclBuffer):
            self.defs[node.buffer] = node.data
        elif ir.SBlock is not None and isinstance(node, ir.SBlock):
            for match in node.match_buffers:
                self.defs[match.buffer] = fix._accessed_buffer(match.source)
        elif isinstance(node, ir.Store):
            self._record_access(fix.stored(node))
        elif isinstance(node, fix._LOAD_TYPES):
            self._record_access(fix._accessed_buffer(node))
        return WalkResult.ADVANCE


def _outer_extent_only(kernel):
    """_launch_parameters without the nested thread environments' extents."""
    found = list(fix._thread_extent(kernel))  # mistake: the opening environment's only

    def visit(node):
        alloc = allocation(node)
        if alloc is not None and scope_of(alloc[0]) == "shared.dyn":
            found.extend(alloc[0].ty.shape)
        return WalkResult.ADVANCE

    walk(kernel, visit, order="pre")
    return found


def _device_type_only(annotations):
    found = annotations.get("device_type") if annotations is not None else None
    # mistake: disable_lower_builtin is not looked at
    return isinstance(found, int | ir.IntImm) and int(found) == 1


class _AliasOneStep(fix._MemoryAccessVerifier):
    def _from_function_args(self, var):
        for _ in range(2):  # mistake: the variable and its direct definition only
            if var is None:
                return False
            if self._is_pointer_param(var) or any(var.same_as(a) for a in self.device_allocations):
                return True
            var = fix._definition_source(self.defs.get(var))
        return False


def _checked_helpers_too(func):
    attrs = func.attrs
    target = attrs.get("target") if attrs is not None else None
    if target is None:
        return False
    calling_conv = attrs.get("calling_conv")
    if calling_conv is not None and int(calling_conv) != 0:
        return False
    # mistake: no exemption of device helpers (no host, no global_symbol)
    return target.get_target_device_type() in fix._GPU_DEVICE_TYPES


class _LocalAllocAsDevice(fix._MemoryAccessVerifier):
    @staticmethod
    def _is_device_allocation(var, annotations):
        # mistake: the scope is not looked at
        return not fix._annotated_host_memory(annotations)


_PATCHES = {
    "blind5-first-param-only": {"_MemoryAccessVerifier": _FirstParamOnly},
    "blind5-address-of-is-access": {"_MemoryAccessVerifier": _AddressOfIsAccess},
    "blind5-webgpu-unchecked": {"_GPU_DEVICE_TYPES": (2, 4, 7, 8, 10)},
    "blind5-outer-extent-only": {"_launch_parameters": _outer_extent_only},
    "blind5-disable-lower-builtin-ignored": {"_annotated_host_memory": _device_type_only},
    "blind5-alias-one-step": {"_MemoryAccessVerifier": _AliasOneStep},
    "blind5-device-helpers-checked": {"_checked": _checked_helpers_too},
    "blind5-local-alloc-as-device": {"_MemoryAccessVerifier": _LocalAllocAsDevice},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
