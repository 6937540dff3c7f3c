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
"""Wrong fixes of the VerifyMemory report: each is the text of bugs/verify_memory/reference_fix.py
with one step changed (harness/wrong_fixes.py: EDITS), installed as the reference fix is, so that
``tvm.tirx.transform.VerifyMemory`` and ``tvm.tirx.analysis.verify_memory`` both carry the
mistake.
"""

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

# the thread a thread environment binds: its IterVar's tag on apache/tvm, the first argument of
# ``launch_thread`` on tvm-tirx (None for a ``device_scope``); put before the verifier class
_THREAD_TAG = (
    "class _MemoryAccessVerifier:",
    """def _thread_tag(node):
    iter_var = getattr(node, "node", None)
    if iter_var is not None:
        return getattr(iter_var, "thread_tag", None)
    args = getattr(node, "args", None)
    return str(args[0].value) if args and isinstance(args[0], ir.StringImm) else None


class _MemoryAccessVerifier:""",
)
_IS_POINTER = "(ir.is_buffer_var(p) or isinstance(p.ty, ir.PointerType))"
_WALK_STOP = "            if self._is_pointer_param(var) or any("
_KERNEL = "        if ir.is_thread_env(node):\n            # everything"
_ADDRESS_OF_INDICES = (
    "            for index in node.args[0].indices:\n"
    '                walk(index, self._on_node, order="pre")\n'
)
_HOST_MEMORY = '    return value("device_type") == 1 or'
_GPUS = "_GPU_DEVICE_TYPES = (2, 4, 7, 8, 10, 15)"
_DEVICE_ALLOCATION = 'scope_of(var) == "global" and not _annotated_host_memory(annotations)'
_CHECKED_TAIL = '    return target.host is not None or attrs.get("global_symbol") is not None'
_FROM_ARGS = "    def _from_function_args(self, var):\n"
_NEW_LIST = "        self.device_allocations = []\n"
_LOAD_RECORD = "self._record_access(_accessed_buffer(node))"

EDITS = {
    "host-allocations": [("if self._from_function_args(buffer):", "if True:  # every host access")],
    "global-allocations-unchecked": [(_DEVICE_ALLOCATION, "False")],
    "local-allocations-too": [(_DEVICE_ALLOCATION, "not annotations")],
    "cuda-only": [(_GPUS, "_GPU_DEVICE_TYPES = (2,)")],
    "every-target": [(_GPUS, "_GPU_DEVICE_TYPES = (1, 2, 4, 7, 8, 10, 15)")],
    "no-webgpu": [(_GPUS, "_GPU_DEVICE_TYPES = (2, 4, 7, 8, 10)")],
    "one-level": [
        (
            _FROM_ARGS,
            _FROM_ARGS + "        source = _definition_source(self.defs.get(var))\n"
            "        return any(\n"
            "            v is not None and any(v.same_as(p) for p in self.func.params)\n"
            "            for v in (var, source)\n"
            "        )\n",
        )
    ],
    "decl-buffer-only": [
        (
            "self.defs[match.buffer] = _accessed_buffer(match.source)",
            "pass  # match_buffer regions are not followed",
        )
    ],
    "root-name": [
        (
            _FROM_ARGS,
            _FROM_ARGS + "        import re\n\n"
            '        root = re.sub(r"_\\d+$", "", var.name)\n'
            "        return any(\n"
            "            ir.is_buffer_var(p) and p.name == root for p in self.func.params\n"
            "        )\n",
        )
    ],
    "any-alias": [
        (_FROM_ARGS, _FROM_ARGS + "        if var in self.defs:\n            return True\n")
    ],
    "first-param-only": [
        (
            _WALK_STOP + "var.same_as(a) for a in self.device_allocations):",
            "            if var.same_as(self.func.params[0]):",
        )
    ],
    "aliases-only": [
        (_FROM_ARGS, _FROM_ARGS + "        var = _definition_source(self.defs.get(var))\n")
    ],
    "stores-only": [(_LOAD_RECORD, "pass  # host loads are not checked")],
    "no-thread-env": [
        (
            "            for value in _launch_parameters(node):\n"
            '                walk(value, self._on_node, order="pre")\n'
            "            return WalkResult.SKIP",
            "            return WalkResult.ADVANCE  # kernels are checked as host code",
        )
    ],
    "first-pointer-param": [
        (_IS_POINTER, "(ir.is_buffer_var(p) or p.same_as(self.func.params[0]))")
    ],
    "address-of-access": [
        (
            _ADDRESS_OF_INDICES + "            return WalkResult.SKIP",
            "            return WalkResult.ADVANCE  # X of address_of(X[i]) is accessed",
        )
    ],
    "address-of-untraced": [
        (
            _WALK_STOP + "var.same_as(a) for a in self.device_allocations):",
            "            if self._is_pointer_param(var):",
        ),
        (
            "            var = _definition_source(self.defs.get(var))",
            "            value = self.defs.get(var)\n"
            "            var = None if _is_address_of_load(value) else _definition_source(value)",
        ),
    ],
    "address-of-index-unchecked": [(_ADDRESS_OF_INDICES, "")],
    "threadIdx-x-only": [
        _THREAD_TAG,
        (
            _KERNEL,
            '        if ir.is_thread_env(node) and _thread_tag(node) != "threadIdx.x":\n'
            "            return WalkResult.ADVANCE\n" + _KERNEL,
        ),
    ],
    "first-error-only": [("        return errors\n", "        return errors[:1]\n")],
    "every-launch-load": [
        (_NEW_LIST, _NEW_LIST + "        self.launch_loads = []\n"),
        (
            "            for value in _launch_parameters(node):\n",
            "            for value in _launch_parameters(node):\n"
            '                walk(value, self._launch_load, order="pre")\n',
        ),
        (
            "    def _record_access(self, buffer):",
            "    def _launch_load(self, node):\n"
            "        if isinstance(node, _LOAD_TYPES) and _accessed_buffer(node) is not None:\n"
            "            self.launch_loads.append(_accessed_buffer(node))\n"
            "        return WalkResult.ADVANCE\n\n"
            "    def _record_access(self, buffer):",
        ),
        (
            _FROM_ARGS,
            _FROM_ARGS + "        if any(var.same_as(v) for v in self.launch_loads):\n"
            "            return True\n",
        ),
    ],
    "device-helpers": [(_CHECKED_TAIL, "    return True")],
    "skip-hostless": [(_CHECKED_TAIL, "    return target.host is not None")],
    "skip-private": [(_CHECKED_TAIL, '    return attrs.get("global_symbol") is not None')],
    "every-calling-conv": [
        ("    if calling_conv is not None and int(calling_conv) != 0:\n        return False\n", "")
    ],
    "no-pointer-arithmetic": [("    **POINTER_ARITHMETIC,\n", '    "tirx.buffer_data": 0,\n')],
    "any-annotation-is-host-memory": [
        (
            _HOST_MEMORY + ' (value("disable_lower_builtin") or 0) != 0',
            "    return bool(annotations)",
        )
    ],
    "pointer-arithmetic-one-level": [
        (
            "    return pointer_base(value, _POINTER_OPERAND)",
            "    if isinstance(value, ir.Call) and isinstance(value.op, ir.Op) and value.args:\n"
            "        name = value.op.name\n"
            "        position = _POINTER_OPERAND.get(name)\n"
            "        operand = None if position is None else value.args[position]\n"
            '        if name in POINTER_ARITHMETIC and name != "tirx.buffer_data":\n'
            "            return operand if isinstance(operand, ir.Var) else None\n"
            "        if operand is not None:\n"
            "            return _definition_source(operand)\n"
            "    return pointer_base(value, _POINTER_OPERAND)",
        )
    ],
    "threadIdx-extents-only": [
        _THREAD_TAG,
        (
            "            found.extend(_thread_extent(node))",
            '            if str(_thread_tag(node)).startswith("threadIdx"):\n'
            "                found.extend(_thread_extent(node))",
        ),
    ],
    "outermost-launch-only": [("_launch_parameters(node):", "_thread_extent(node):")],
    "launch-extents-only": [
        (
            "            found.extend(alloc[0].ty.shape)",
            "            pass  # the dynamic shared memory size is left to the kernel",
        )
    ],
    "blind-nested-extents-in-kernel": [
        (
            "if ir.is_thread_env(node):\n            found.extend(",
            "if ir.is_thread_env(node) and node.same_as(kernel):\n            found.extend(",
        )
    ],
    "blind-disable-flag-present": [
        (
            ' (value("disable_lower_builtin") or 0) != 0',
            ' (\n        annotations is not None and "disable_lower_builtin" in annotations\n    )',
        )
    ],
    "blind-any-device-type": [(_HOST_MEMORY, '    return value("device_type") is not None or')],
    "blind-address-of-unvisited": [(_ADDRESS_OF_INDICES, "")],
    "blind-access-ptr-first-arg": [
        (
            '    "tirx.tvm_struct_get": 0,\n',
            '    "tirx.tvm_access_ptr": 0,\n    "tirx.tvm_struct_get": 0,\n',
        )
    ],
    "blind-pointer-param-first-only": [
        (
            _IS_POINTER,
            "(ir.is_buffer_var(p) or isinstance(p.ty, ir.PointerType)"
            " and p.same_as(self.func.params[0]))",
        )
    ],
    "blind-no-webgpu": [(_GPUS, "_GPU_DEVICE_TYPES = (2, 4, 7, 8, 10)")],
    "blind-loads-untraced": [
        (_NEW_LIST, _NEW_LIST + "        self.loads = []\n"),
        (
            _LOAD_RECORD,
            "if _accessed_buffer(node) is not None:\n"
            "                self.loads.append(_accessed_buffer(node))",
        ),
        (
            "        for buffer in self.accesses:\n"
            "            if self._from_function_args(buffer):",
            "        checks = [(b, self._from_function_args) for b in self.accesses]\n"
            "        # a load is an error only when it names a parameter itself\n"
            "        checks += [(b, self._is_pointer_param) for b in self.loads]\n"
            "        for buffer, check in checks:\n"
            "            if check(buffer):",
        ),
    ],
}
