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
"""Wrong fixes of the host-level scalar report: each is the text of
bugs/host_scalar/reference_fix.py with one step changed (harness/wrong_fixes.py: EDITS).

Each changes one step of S1 (classification) and S2 (by-value launch) in SplitHostDevice or of
S3 in LowerTVMBuiltin; ``s3-missing`` drops the LowerTVMBuiltin half. Like the reference fix,
they hold on both TVM lines (harness/tvm_line.py).
"""

WRONG_FIXES = {
    "pass-zero": "S2 passes a zero of the cell's dtype instead of the cell's value",
    "pass-first-value": "S2 passes the first value stored into the cell, not its value at launch",
    "pass-last-value": "S2 passes the last value stored into the cell, not its value at launch",
    "per-kernel": "S2 per kernel: a kernel that only reads a cell gets its value, whoever "
    "else writes it (the first patch: a cell kernel 1 writes reaches kernel 2 stale)",
    "address-is-read": "address_of(c[0]) in a kernel counts as a read of c (address_of(<var>))",
    "reject-stores-only": "only kernel stores are rejected: address_of and indexing of host "
    "memory still give the kernel a host pointer",
    "no-rejection": "nothing is rejected: a kernel that writes host memory gets a host pointer",
    "reject-kernel-shared": "a local buffer that only kernels use is rejected when one writes it",
    "annotate-kernel-shared": "a local buffer that only kernels use is marked host memory too",
    "host-only-unannotated": "only by-value cells are host memory: host arrays stay on the device",
    "global-too": "global allocations of the host code are classified (marked host memory) too",
    "s1-only": "host memory marked, nothing by value: the kernel gets a host pointer",
    "annotation-replaces-others": "host memory gets device_type as its only annotation: the "
    "allocation's own annotations are dropped",
    "s2-only": "by value, nothing marked: the host cell is still allocated on the device",
    "s3-missing": "LowerTVMBuiltin ignores the device_type annotation (SplitHostDevice half only)",
    "s3-enclosing-device-id": "S3 keeps the function's device id for the CPU workspace",
    "views-of-data-only": "only decl_buffer views over c.data are views: a view at "
    "address_of(c[0]) or over a pointer bound to c.data gives the kernel a host pointer",
    "view-declaration-is-host-use": "a view that the host code declares counts as a host use "
    "of its buffer (the first patch: kernels sharing a buffer through a host view are rejected)",
    "calls-are-not-host-uses": "only host loads and stores are host uses: a buffer whose "
    "pointer the host hands to a packed or extern call stays device memory",
    "module-kernels-are-host-calls": "a call of a kernel written as a module function is a "
    "host call: a buffer whose pointer main hands only to such kernels becomes host memory "
    "(the fourth review's miscompile)",
    "symbol-launches-are-host-calls": "only GlobalVar calls launch module kernels: a launch "
    "that names the kernel by its symbol (call_ffi_kernel, a packed call) is a host call",
    "first-region-only": "S2 rewrites the first device region only: a later kernel reading the "
    "cell loads it through a pointer to host memory",
    "top-level-cells-only": "S1 classifies the cells allocated at the top of the host code only: "
    "a cell allocated inside a host for or if stays on the device",
    "cuda-and-rocm-only": "only CUDA and ROCm kernels count as launched by a device runtime: "
    "the host-level buffers of OpenCL, Vulkan, Metal and WebGPU functions stay on the device",
    "not-cpu-predicate": "every device but the CPU counts as launched by a device runtime "
    "(ext_dev and Hexagon kernels, called as functions, get their cells classified too)",
    "vector-cell-by-value": "the lanes of a one-element cell are not checked: a float32x4 cell "
    "a kernel reads is passed by value, a vector kernel parameter no runtime can launch",
    "threadIdx-x-kernels-only": "a kernel is recognised by its threadIdx.x binding: the uses in "
    "a kernel bound by blockIdx.x (or threadIdx.y) alone are host uses",
    "first-kernel-use-decides": "a kernel's first use of a buffer decides whether it needs the "
    "pointer: a read of c[0] before a store into c lets the store through",
    "tensor-is-host-use": "a tensor the host makes of a buffer for a call (T.call_packed(f, c)) "
    "is a host use: the buffer becomes CPU memory that the tensor describes as device memory",
    "blind-per-load-params": "S2 makes a fresh scalar parameter for every load of a cell, not one "
    "per cell and kernel: a kernel reading c twice gets two parameters",
    "blind-s3-alloc-only": "S3 moves the workspace allocation to the CPU but not its free: the "
    "host frees CPU memory through the device's workspace pool",
    "blind-s3-free-only": "S3 moves the workspace free to the CPU but not its allocation: the "
    "host stores into device memory and frees it on the CPU",
    "blind-any-device-type": "S3 follows any device_type annotation instead of rejecting values "
    "other than kDLCPU",
    "blind-tensor-not-rejected": "a buffer the host uses and a call receives as a tensor is host "
    "memory instead of an error: the tensor describes CPU memory as device memory",
    "blind-views-one-level": "only direct views of a buffer are its views: a kernel using a view "
    "of a view of a host cell gets a pointer to host memory",
    "blind-s2-top-level-kernels": "S2 rewrites the kernels in the top-level sequence of the host "
    "code only: a kernel launched in a host loop reads the cell through a host pointer",
    "blind-s1-kernels-in-while-unseen": "S1 does not look into host while loops for kernel uses: a "
    "kernel launched in one reads host memory through a pointer",
    "blind-stack-any-scope": "S3 puts every small constant-size host allocation on the stack, "
    "whatever its scope (the CPU rule keeps only global ones there)",
    "blind-first-cell-only": "S1 classifies the first local buffer of the host code only: a "
    "second cell stays device memory that the host stores into",
}


# the value S2 passes instead of the load, from the values the host code stores into the cell
# in program order (``{value}``: which of them; the first and last; the initializer elsewhere)
_STORED_VALUE = """    cell, values = loaded(load), []

    def visit(node):
        if isinstance(node, ir.Store) and stored(node).same_as(cell):
            values.append(node.value)

    walk(_host_func.body, visit, order="pre")
    return {value}"""
_LAUNCH_LOAD = "    return tensor_load(loaded(load), load.indices)"
_BY_VALUE = "    return by_value\n"
_KERNEL_SHARED = '        return "device"  # device memory shared by kernels, as today'
_REJECT = '        return "reject"\n'
_RUNTIMES = "launched_by_device_runtime(target)"
_HOST_USE = 'every one is."""\n    return True'
_DEVICE_VALUE = "    value = annotations[_DEVICE_TYPE]\n"
_REGION_VALUES = "if region_values else stmt\n"

EDITS = {
    "pass-zero": [(_LAUNCH_LOAD, "    return ir.const(0, str(loaded(load).ty.dtype))")],
    "pass-first-value": [(_LAUNCH_LOAD, _STORED_VALUE.format(value="values[0]"))],
    "pass-last-value": [(_LAUNCH_LOAD, _STORED_VALUE.format(value="values[-1]"))],
    "per-kernel": [
        (
            _BY_VALUE,
            "    read, pointer = set(), set()  # the buffers this region only loads\n\n"
            "    def on_use(i, node):\n"
            "        (read if _kernel_use(node) is None else pointer).add(i)\n\n"
            "    _walk_uses(_region, _buffers, on_use)\n"
            "    return [_buffers[i] for i in sorted(read - pointer)]\n",
        )
    ],
    "address-is-read": [('        return "takes the address of"', "        return None")],
    "reject-stores-only": [
        (_REJECT, '        return "reject" if needs_pointer == "stores into" else "host"\n')
    ],
    "no-rejection": [(_REJECT, '        return "host"\n')],
    "reject-kernel-shared": [
        (_KERNEL_SHARED, '        return "reject" if needs_pointer is not None else "device"')
    ],
    "annotate-kernel-shared": [(_KERNEL_SHARED, '        return "host"')],
    "host-only-unannotated": [('if kernel else "host"', 'if kernel else "device"')],
    "global-too": [('    return scope_of(allocation(alloc)[0]) == "local"', "    return True")],
    "s1-only": [(_BY_VALUE, "    return []\n")],
    "annotation-replaces-others": [
        (
            "    annotations = _annotations(alloc)\n    annotations[",
            "    annotations = {}  # the allocation's own are dropped\n    annotations[",
        )
    ],
    "s2-only": [("    body = _annotate_host_memory(body, host_memory)\n", "")],
    "s3-missing": [('    "LowerTVMBuiltin": _wrap_lower_tvm_builtin,\n', "")],
    "s3-enclosing-device-id": [("    return _KDLCPU, 0", "    return _KDLCPU, None")],
    "views-of-data-only": [
        (
            "    base = pointer_base(ptr, VIEW_OPERANDS)\n",
            "    name = getattr(ptr.op, 'name', '') if isinstance(ptr, ir.Call) else ''\n"
            "    if name == 'tirx.decl_tensor':\n"
            "        ptr = ptr.args[0]\n"
            "        name = getattr(ptr.op, 'name', '') if isinstance(ptr, ir.Call) else ''\n"
            "    if name in ('tirx.buffer_data', 'tirx.tensor_data_ptr'):  # c.data only\n"
            "        return _index(tracked, ptr.args[0])\n"
            "    return -1\n",
        )
    ],
    "view-declaration-is-host-use": [
        ("    return pointer_operands(data, VIEW_OPERANDS)", "    return [data]")
    ],
    "calls-are-not-host-uses": [
        (_HOST_USE, 'every one is."""\n    return isinstance(_node, (*ir.LOADS, ir.Store))')
    ],
    "module-kernels-are-host-calls": [("_launched_functions(func, mod))", "([], set()))")],
    "symbol-launches-are-host-calls": [
        (
            '_SYMBOL_LAUNCHES = ("tirx.call_ffi_kernel", "tirx.tvm_call_packed")',
            "_SYMBOL_LAUNCHES = ()",
        )
    ],
    "first-region-only": [
        (
            _BY_VALUE,
            "    first = list(by_value)\n"
            "    by_value.clear()  # the function's later device regions get none\n"
            "    return first\n",
        )
    ],
    "top-level-cells-only": [
        (
            "        if allocation(node) is not None and _is_candidate(node):\n",
            '        if type(node).__name__ in ("For", "While", "IfThenElse", "If"):\n'
            "            return WalkResult.SKIP  # host loops and branches are not looked into\n"
            "        if allocation(node) is not None and _is_candidate(node):\n",
        )
    ],
    "cuda-and-rocm-only": [
        (_RUNTIMES, "int(target.get_target_device_type()) in (2, 10)  # kDLCUDA, kDLROCM")
    ],
    "not-cpu-predicate": [(_RUNTIMES, "int(target.get_target_device_type()) != 1  # kDLCPU")],
    "vector-cell-by-value": [("dtype.lanes == 1\n        and ", "")],
    "threadIdx-x-kernels-only": [
        (
            "# the allocation annotation that marks host memory, and its value\n",
            "from types import SimpleNamespace\n\n\n"
            "def _threadidx_x_region(node):\n"
            '    """A device region is the environment of a threadIdx.x binding (its\n'
            "    IterVar's tag; on tvm-tirx the first argument of launch_thread); nothing else\n"
            '    opens one."""\n'
            "    if not ir.is_thread_env(node):\n"
            "        return False\n"
            '    iter_var = getattr(node, "node", None)\n'
            "    if iter_var is not None:\n"
            '        return getattr(iter_var, "thread_tag", None) == "threadIdx.x"\n'
            '    args = getattr(node, "args", None)\n'
            "    tag = str(args[0].value) if args and isinstance(args[0], ir.StringImm) else None\n"
            '    return tag == "threadIdx.x"\n\n\n'
            'ir = SimpleNamespace(**{**vars(ir), "is_device_region": _threadidx_x_region})\n\n'
            "# the allocation annotation that marks host memory, and its value\n",
        )
    ],
    "first-kernel-use-decides": [
        (
            "    entry[1] = True\n"
            "    if how is not None and entry[2] is None:\n"
            "        entry[2] = how",
            "    if not entry[1]:  # the first use decides\n"
            "        entry[2] = how\n"
            "    entry[1] = True",
        )
    ],
    "tensor-is-host-use": [
        (
            '_TENSOR_ARGUMENTS = ("tirx.tvm_stack_make_array", "tirx.stack_make_dltensor")',
            "_TENSOR_ARGUMENTS = ()",
        )
    ],
    # the blind-* wrong fixes: written without reading the tests
    "blind-per-load-params": [
        ("        if i not in fresh:\n", "        if True:  # a fresh Var for every load\n")
    ],
    "blind-s3-alloc-only": [("[(ir.Stmt, on_stmt), (ir.Call, on_call)]", "[(ir.Stmt, on_stmt)]")],
    "blind-s3-free-only": [
        ("        lowered = workspace_of(stmt)\n", "        lowered = None  # not relocated\n")
    ],
    "blind-any-device-type": [
        (_DEVICE_VALUE, "    return int(annotations[_DEVICE_TYPE]), 0  # whatever the value\n")
    ],
    "blind-tensor-not-rejected": [
        (
            "    if kernel and not host:\n",
            "    if needs_pointer == _TENSOR_USE:\n"
            "        needs_pointer = None  # a host use wins over a tensor\n"
            "    if kernel and not host:\n",
        )
    ],
    "blind-views-one-level": [
        (
            "        tracked = list(buffers) + [view for view, _ in views]",
            "        tracked = list(buffers)  # a view of a view is not followed",
        )
    ],
    "blind-s2-top-level-kernels": [
        (
            _REGION_VALUES,
            _REGION_VALUES
            + "        if not isinstance(stmt, ir.SeqStmt) and allocation(stmt) is None:\n"
            "            return stmt  # host loops and branches are not looked into\n",
        )
    ],
    "blind-s1-kernels-in-while-unseen": [
        (
            "        if ir.is_device_region(node):\n            regions.append(node)",
            '        if type(node).__name__ == "While":\n'
            "            return WalkResult.SKIP  # host while loops are not looked into\n"
            "        if ir.is_device_region(node):\n            regions.append(node)",
        )
    ],
    "blind-stack-any-scope": [('scope_of(buffer) == "global"\n        and ', "")],
    "blind-first-cell-only": [("    return found\n", "    return found[:1]\n")],
}
