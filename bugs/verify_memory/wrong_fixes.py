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
"""Wrong fixes of the VerifyMemory report: variants of bugs/verify_memory/reference_fix.py.

Each replaces one step of the reference fix (its verifier class, or the device types it
checks) and then installs the reference fix as usual, so that ``tvm.tirx.transform.VerifyMemory``
and ``tvm.tirx.analysis.verify_memory`` both carry the mistake.
"""

import re

from bugs.verify_memory import reference_fix as fix
from harness.tvm_line import WalkResult, allocation, ir, scope_of, walk

WRONG_FIXES = {
    "host-allocations": "every host access is an error, host allocations included",
    "global-allocations-unchecked": "host-allocated global buffers are skipped, as all host "
    "allocations were before (a host store into one that a kernel reads compiles)",
    "local-allocations-too": "every unannotated host allocation counts as device memory, local "
    "cells included",
    "cuda-only": "only the cuda device type is checked (rocm, vulkan, metal, opencl skipped)",
    "every-target": "CPU targets are checked too (the device-type test dropped)",
    "one-level": "follows one decl_buffer/match_buffer step only, not a chain of aliases",
    "decl-buffer-only": "follows decl_buffer aliases but not S-TIR match_buffer regions",
    "root-name": "an alias counts as a parameter when its name minus the `_N` suffix is one",
    "any-alias": "every decl_buffer/match_buffer alias counts as a parameter, whatever its root",
    "first-param-only": "follows aliases to the first parameter only (the packed-API handle rule)",
    "aliases-only": "checks accesses through aliases, no longer the parameters themselves",
    "stores-only": "host stores are checked, host loads are not",
    "no-thread-env": "accesses inside a thread environment (kernels) are checked as well",
    "first-pointer-param": "a pointer (non-buffer) parameter counts only in the first position",
    "address-of-access": "address_of(X[i]) counts as a host access to X (an address is no access)",
    "address-of-untraced": "a view at address_of(X[i]) is not traced back to X",
    "no-webgpu": "webgpu functions are not checked (the pre-fix GPU list)",
    "device-helpers": "private helpers whose target has no host (device code) are checked too",
    "skip-hostless": "every function whose target has no host is skipped, entry points too",
    "skip-private": "every private function is skipped, host code included",
    "every-calling-conv": "functions with a non-default calling convention are checked too",
    "address-of-index-unchecked": "host loads inside the indices of address_of(X[i]) are skipped",
    "no-pointer-arithmetic": "views over reinterpret, byte offsets, tvm_access_ptr are not traced",
    "any-annotation-is-host-memory": "a host-allocated global buffer with any annotation is "
    "taken for host memory (the first patch), not only device_type kDLCPU or "
    "disable_lower_builtin",
    "pointer-arithmetic-one-level": "pointer arithmetic traced only when its operand is a variable",
    "threadIdx-x-only": "only a threadIdx.x binding opens a thread environment: a kernel bound by "
    "blockIdx.x (or threadIdx.y) alone is checked as host code",
    "first-error-only": "the error names the first offending host access only: a later "
    "offending variable goes unreported",
    "outermost-launch-only": "only the extent of the launch that opens a kernel is host code: "
    "a nested launch's extent and the dynamic shared memory size are left to the kernel",
    "launch-extents-only": "a launch's extents are host code, its dynamic shared memory size "
    "is left to the kernel",
    "threadIdx-extents-only": "only threadIdx extents are host code: a blockIdx.x extent is left "
    "to the kernel",
    "every-launch-load": "every load in a launch's extents or shared memory size is an error, "
    "a host cell's included",
    "blind-nested-extents-in-kernel": "only the extent of the thread_extent that opens a kernel "
    "(and its shared.dyn size) is host code: the extents nested in it are taken for kernel code",
    "blind-disable-flag-present": "a global host allocation stays on the host when it carries "
    "disable_lower_builtin at all, whatever its value (0 included)",
    "blind-any-device-type": "a global host allocation stays on the host when it carries any "
    "device_type annotation, not only kDLCPU",
    "blind-address-of-unvisited": "address_of(X[i]) is skipped whole: a device load in its "
    "indices goes unchecked",
    "blind-access-ptr-first-arg": "tvm_access_ptr's buffer is taken from its first argument "
    "(the dtype) instead of the second: aliases through it are not followed",
    "blind-pointer-param-first-only": "a pointer (handle) parameter counts only at position 0, "
    "as the legacy rule; buffer parameters count at any position",
    "blind-no-webgpu": "the device types checked stay the released five: webgpu is skipped",
    "blind-loads-untraced": "only stores follow the alias chain; a load is an error only when "
    "it names a parameter itself",
}

# wrong fixes that no program can tell from the reference fix on apache/tvm-tirx, and why
# (scripts/wrong_fixes.py --tvm-tirx leaves them out)
NOT_ON_TVM_TIRX = {
    "decl-buffer-only": "tvm-tirx has no S-TIR blocks, hence no match_buffer region to follow",
    "blind-access-ptr-first-arg": "tvm-tirx registers no tirx.tvm_access_ptr: no program has "
    "the operand whose position the wrong fix gets wrong",
}


class _OneLevel(fix._MemoryAccessVerifier):
    def _from_function_args(self, var):
        source = fix._definition_source(self.defs.get(var))
        return any(v is not None and self._is_param(v) for v in (var, source))

    def _is_param(self, var):
        return any(var.same_as(p) for p in self.func.params)


class _DeclBufferOnly(fix._MemoryAccessVerifier):
    def _on_node(self, node):
        if ir.SBlock is not None and isinstance(node, ir.SBlock):
            return WalkResult.ADVANCE
        return super()._on_node(node)


class _RootName(fix._MemoryAccessVerifier):
    def _from_function_args(self, var):
        root = re.sub(r"_\d+$", "", var.name)
        return any(ir.is_buffer_var(p) and p.name == root for p in self.func.params)


class _AnyAlias(fix._MemoryAccessVerifier):
    def _from_function_args(self, var):
        return var in self.defs or super()._from_function_args(var)


class _AllAccesses(fix._MemoryAccessVerifier):
    def _from_function_args(self, var):
        return True


class _GlobalAllocationsUnchecked(fix._MemoryAccessVerifier):
    @staticmethod
    def _is_device_allocation(var, annotations):
        return False


class _LocalAllocationsToo(fix._MemoryAccessVerifier):
    @staticmethod
    def _is_device_allocation(var, annotations):
        return not annotations


class _FirstParamOnly(fix._MemoryAccessVerifier):
    def _from_function_args(self, var):
        seen = set()
        while var is not None and var not in seen:
            seen.add(var)
            if var.same_as(self.func.params[0]):
                return True
            var = fix._definition_source(self.defs.get(var))
        return False


class _FirstPointerParam(fix._MemoryAccessVerifier):
    def _is_pointer_param(self, var):
        params = self.func.params
        in_buffer = any(var.same_as(p) and ir.is_buffer_var(p) for p in params)
        return in_buffer or (len(params) > 0 and var.same_as(params[0]))


class _AddressOfAccess(fix._MemoryAccessVerifier):
    def _on_node(self, node):
        if fix._is_address_of_load(node):
            return WalkResult.ADVANCE
        return super()._on_node(node)


class _AddressOfUntraced(fix._MemoryAccessVerifier):
    def _from_function_args(self, var):
        seen = set()
        while var is not None and var not in seen:
            seen.add(var)
            if self._is_pointer_param(var):
                return True
            value = self.defs.get(var)
            var = None if fix._is_address_of_load(value) else fix._definition_source(value)
        return False


class _AliasesOnly(fix._MemoryAccessVerifier):
    def _from_function_args(self, var):
        source = fix._definition_source(self.defs.get(var))
        return source is not None and super()._from_function_args(source)


class _StoresOnly(fix._MemoryAccessVerifier):
    def _on_node(self, node):
        if isinstance(node, fix._LOAD_TYPES):
            return WalkResult.ADVANCE
        return super()._on_node(node)


class _NoThreadEnv(fix._MemoryAccessVerifier):
    def _on_node(self, node):
        if ir.is_thread_env(node):
            return WalkResult.ADVANCE
        return super()._on_node(node)


class _AddressOfIndexUnchecked(fix._MemoryAccessVerifier):
    def _on_node(self, node):
        if fix._is_address_of_load(node):
            return WalkResult.SKIP
        return super()._on_node(node)


def _thread_tag(node):
    """The thread a thread environment binds: its IterVar's tag on apache/tvm, the first
    argument of ``launch_thread`` on tvm-tirx (None for a ``device_scope``)."""
    iter_var = getattr(node, "node", None)
    if iter_var is not None:
        return getattr(iter_var, "thread_tag", None)
    args = getattr(node, "args", None)
    return str(args[0].value) if args and isinstance(args[0], ir.StringImm) else None


class _ThreadIdxXOnly(fix._MemoryAccessVerifier):
    def _on_node(self, node):
        if ir.is_thread_env(node) and _thread_tag(node) != "threadIdx.x":
            return WalkResult.ADVANCE
        return super()._on_node(node)


class _FirstErrorOnly(fix._MemoryAccessVerifier):
    def run(self):
        return super().run()[:1]


class _EveryLaunchLoad(fix._MemoryAccessVerifier):
    def __init__(self, func):
        super().__init__(func)
        self.launch_loads = []

    def _on_node(self, node):
        if ir.is_thread_env(node):
            for value in fix._launch_parameters(node):
                walk(value, self._launch_load, order="pre")
        return super()._on_node(node)

    def _launch_load(self, node):
        if isinstance(node, fix._LOAD_TYPES) and fix._accessed_buffer(node) is not None:
            self.launch_loads.append(fix._accessed_buffer(node))
        return WalkResult.ADVANCE

    def _from_function_args(self, var):
        return any(var.same_as(v) for v in self.launch_loads) or super()._from_function_args(var)


def _launch_parameters_where(keep_extent, dynamic_shared_memory):
    """The reference fix's launch parameters, with only the extents of the thread environments
    ``keep_extent`` accepts, and the dynamic shared memory size or not."""

    def launch_parameters(kernel):
        found = []

        def visit(node):
            if ir.is_thread_env(node) and keep_extent(node):
                found.extend(fix._thread_extent(node))
            alloc = allocation(node)
            if dynamic_shared_memory and alloc and scope_of(alloc[0]) == "shared.dyn":
                found.extend(alloc[0].ty.shape)
            return WalkResult.ADVANCE

        walk(kernel, visit, order="pre")
        return found

    return launch_parameters


def _checked_device_helpers(func):
    attrs = func.attrs
    target = attrs.get("target") if attrs is not None else None
    calling_conv = attrs.get("calling_conv") if attrs is not None else None
    return (
        target is not None
        and (calling_conv is None or int(calling_conv) == 0)
        and target.get_target_device_type() in fix._GPU_DEVICE_TYPES
    )


def _checked_skip_hostless(func):
    return _checked_device_helpers(func) and func.attrs["target"].host is not None


def _checked_skip_private(func):
    return _checked_device_helpers(func) and func.attrs.get("global_symbol") is not None


def _checked_every_calling_conv(func):
    target = func.attrs.get("target") if func.attrs is not None else None
    if target is None or target.get_target_device_type() not in fix._GPU_DEVICE_TYPES:
        return False
    return target.host is not None or func.attrs.get("global_symbol") is not None


_RELEASED_SOURCES = (
    "tirx.buffer_data",
    "tirx.tvm_struct_get",
    "tirx.tensor_data_ptr",
    "tirx.decl_tensor",
)


def _source_one_level(value):
    """Pointer arithmetic followed only when its operand is a variable; the released
    sources (``buffer_data(X)``, ...) followed as the reference fix does, down to it."""
    if not isinstance(value, ir.Call) or not isinstance(value.op, ir.Op) or not value.args:
        return _reference_source(value)
    name = value.op.name
    if name in _RELEASED_SOURCES:
        return _source_one_level(value.args[fix._POINTER_OPERAND[name]])
    if name in fix._POINTER_OPERAND:
        operand = value.args[fix._POINTER_OPERAND[name]]
        return operand if isinstance(operand, ir.Var) else None
    return _reference_source(value)


_reference_source = fix._definition_source
_VERIFIERS = {
    "host-allocations": _AllAccesses,
    "global-allocations-unchecked": _GlobalAllocationsUnchecked,
    "local-allocations-too": _LocalAllocationsToo,
    "one-level": _OneLevel,
    "decl-buffer-only": _DeclBufferOnly,
    "root-name": _RootName,
    "any-alias": _AnyAlias,
    "first-param-only": _FirstParamOnly,
    "aliases-only": _AliasesOnly,
    "stores-only": _StoresOnly,
    "no-thread-env": _NoThreadEnv,
    "first-pointer-param": _FirstPointerParam,
    "address-of-access": _AddressOfAccess,
    "address-of-untraced": _AddressOfUntraced,
    "address-of-index-unchecked": _AddressOfIndexUnchecked,
    "threadIdx-x-only": _ThreadIdxXOnly,
    "first-error-only": _FirstErrorOnly,
    "every-launch-load": _EveryLaunchLoad,
}
# DLDeviceType values: kDLCPU 1, kDLCUDA 2, kDLWebGPU 15
_DEVICE_TYPES = {
    "cuda-only": (2,),
    "every-target": (1, *fix._GPU_DEVICE_TYPES),
    "no-webgpu": tuple(t for t in fix._GPU_DEVICE_TYPES if t != 15),
}
_CHECKED = {
    "device-helpers": _checked_device_helpers,
    "skip-hostless": _checked_skip_hostless,
    "skip-private": _checked_skip_private,
    "every-calling-conv": _checked_every_calling_conv,
}
_SOURCES = {
    "no-pointer-arithmetic": {key: fix._POINTER_OPERAND[key] for key in _RELEASED_SOURCES},
}


# wrong fix -> {attribute of reference_fixes.verify_memory: its wrong replacement}
PATCHES = {
    **{name: {"_MemoryAccessVerifier": cls} for name, cls in _VERIFIERS.items()},
    **{name: {"_GPU_DEVICE_TYPES": types} for name, types in _DEVICE_TYPES.items()},
    **{name: {"_checked": checked} for name, checked in _CHECKED.items()},
    **{name: {"_POINTER_OPERAND": table} for name, table in _SOURCES.items()},
    "pointer-arithmetic-one-level": {"_definition_source": _source_one_level},
    "outermost-launch-only": {"_launch_parameters": fix._thread_extent},
    "launch-extents-only": {"_launch_parameters": _launch_parameters_where(bool, False)},
    "threadIdx-extents-only": {
        "_launch_parameters": _launch_parameters_where(
            lambda node: str(_thread_tag(node)).startswith("threadIdx"), True
        )
    },
    "any-annotation-is-host-memory": {"_annotated_host_memory": bool},
}


# --- blind review: the variants below each change one step of the reference fix ---


def _blind_launch_parameters_outer(kernel):
    """The kernel's own extent and its shared.dyn size; nested extents are left to the kernel."""
    found = list(fix._thread_extent(kernel))

    def visit(node):
        alloc = allocation(node)
        if alloc is not None and scope_of(alloc[0]) == "shared.dyn":
            found.extend(alloc[0].ty.shape)
        return WalkResult.ADVANCE

    walk(kernel, visit, order="pre")
    return found


def _blind_int_annotation(annotations, key):
    found = annotations.get(key) if annotations is not None else None
    return int(found) if isinstance(found, int | ir.IntImm) else None


def _blind_host_memory_flag_present(annotations):
    return _blind_int_annotation(annotations, "device_type") == 1 or (
        annotations is not None and "disable_lower_builtin" in annotations
    )


def _blind_host_memory_any_device_type(annotations):
    return _blind_int_annotation(annotations, "device_type") is not None or (
        (_blind_int_annotation(annotations, "disable_lower_builtin") or 0) != 0
    )


class _BlindPointerParamFirstOnly(fix._MemoryAccessVerifier):
    def _is_pointer_param(self, var):
        params = list(self.func.params)
        if any(var.same_as(p) and ir.is_buffer_var(p) for p in params):
            return True
        return bool(params) and var.same_as(params[0]) and isinstance(params[0].ty, ir.PointerType)


class _BlindLoadsUntraced(fix._MemoryAccessVerifier):
    def __init__(self, func):
        super().__init__(func)
        self.loads = []

    def _on_node(self, node):
        if isinstance(node, fix._LOAD_TYPES) and not ir.is_thread_env(node):
            buffer = fix._accessed_buffer(node)
            if buffer is not None:
                self.loads.append(buffer)
            return WalkResult.ADVANCE
        return super()._on_node(node)

    def run(self):
        errors = super().run()
        for buffer in self.loads:
            if self._is_pointer_param(buffer):
                errors.append(
                    f"Variable `{buffer.name}` is directly accessed by host memory (it is not "
                    "contained in a thread environment or in the function arguments."
                )
        return errors


PATCHES.update(
    {
        "blind-nested-extents-in-kernel": {"_launch_parameters": _blind_launch_parameters_outer},
        "blind-disable-flag-present": {"_annotated_host_memory": _blind_host_memory_flag_present},
        "blind-any-device-type": {"_annotated_host_memory": _blind_host_memory_any_device_type},
        "blind-address-of-unvisited": {"_MemoryAccessVerifier": _AddressOfIndexUnchecked},
        "blind-access-ptr-first-arg": {
            "_POINTER_OPERAND": {**fix._POINTER_OPERAND, "tirx.tvm_access_ptr": 0}
        },
        "blind-pointer-param-first-only": {"_MemoryAccessVerifier": _BlindPointerParamFirstOnly},
        "blind-no-webgpu": {
            "_GPU_DEVICE_TYPES": tuple(t for t in fix._GPU_DEVICE_TYPES if t != 15)
        },
        "blind-loads-untraced": {"_MemoryAccessVerifier": _BlindLoadsUntraced},
    }
)
