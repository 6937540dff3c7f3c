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
"""Wrong fixes of the host-level scalar report: variants of bugs/host_scalar/reference_fix.py.

Each replaces one step of the reference fix (S1 classification and S2 by-value launch in
SplitHostDevice, S3 in LowerTVMBuiltin) and then installs it as usual; ``s3-missing``
installs the SplitHostDevice half only. Like the reference fix, they are written once for both
TVM lines (harness/tvm_line.py).
"""

from types import SimpleNamespace

from bugs.host_scalar import reference_fix as fix
from harness.tvm_line import (
    WalkResult,
    allocation,
    ir,
    loaded,
    stored,
    walk,
)
from harness.wrong_fixes import patched_install

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


def _op_name(node):
    return getattr(getattr(node, "op", None), "name", "") if isinstance(node, ir.Call) else ""


def _data_views_only(ptr, tracked):
    """The first patch's views: ``c.data`` of a tracked buffer, nothing else (on tvm-tirx a
    view is ``decl_tensor(c.data)``, where ``c.data`` is ``tensor_data_ptr(c)``)."""
    if _op_name(ptr) == "tirx.decl_tensor":
        ptr = ptr.args[0]
    if _op_name(ptr) in ("tirx.buffer_data", "tirx.tensor_data_ptr"):
        return fix._index(tracked, ptr.args[0])
    return -1


def _stores(func, cell):
    """The values stored into ``cell`` by ``func``, in program order."""
    values = []

    def visit(node):
        if isinstance(node, ir.Store) and stored(node).same_as(cell):
            values.append(node.value)

    walk(func.body, visit, order="pre")
    return values


def _zero(load, _func):
    return ir.const(0, str(loaded(load).ty.dtype))


def _first_value(load, func):
    return _stores(func, loaded(load))[0]


def _last_value(load, func):
    return _stores(func, loaded(load))[-1]


def _read_only_in_region(region, _by_value, buffers):
    """The first patch: the buffers that this region only loads, one element at a time."""
    read, pointer = set(), set()

    def on_use(i, node):
        (read if fix._kernel_use(node) is None else pointer).add(i)

    fix._walk_uses(region, buffers, on_use)
    return [buffers[i] for i in sorted(read - pointer)]


def _address_is_read(node):
    if isinstance(node, ir.Call):
        return None
    return _correct_kernel_use(node)


def _any_lanes_single_element_load(load):
    """A load of the single element of a one-element buffer, whatever its dtype's lanes."""
    return fix._constant_elements(loaded(load)) == 1 and all(
        isinstance(i, ir.IntImm) and i.value == 0 for i in load.indices
    )


def _placement_variant(name):
    def placement(host, kernel, needs_pointer):
        if kernel and not host:
            if name == "reject-kernel-shared" and needs_pointer is not None:
                return "reject"
            return "host" if name == "annotate-kernel-shared" else "device"
        if kernel and needs_pointer is not None:
            if name == "no-rejection" or (
                name == "reject-stores-only" and needs_pointer != "stores into"
            ):
                return "host"
            return "reject"
        if kernel:
            return "by_value"
        return "device" if name == "host-only-unannotated" else "host"

    return placement


def _no_by_value(_region, _by_value, _buffers):
    return []


def _no_annotation(body, _host_memory):
    return body


def _device_type_only(_alloc):
    """S1 gives host memory device_type alone, dropping the allocation's own annotations."""
    return {"device_type": ir.const(1, "int32")}


def _enclosing_device_id(alloc):
    device = _correct_host_device(alloc)
    return None if device is None else (device[0], None)


_first_regions = {}  # id(by_value list of a function) -> that list, once its first region is done


def _first_region_only(region, by_value, buffers):
    if _first_regions.get(id(by_value)) is by_value:
        return []
    _first_regions[id(by_value)] = by_value
    return by_value


_HOST_CONTROL_FLOW = ("For", "While", "IfThenElse", "If")  # both lines' node names


def _top_level_cells(body):
    """The candidates allocated outside every device region and every host for / if."""
    found = []

    def visit(node):
        if ir.is_device_region(node) or type(node).__name__ in _HOST_CONTROL_FLOW:
            return WalkResult.SKIP
        if allocation(node) is not None and fix._is_candidate(node):
            found.append(allocation(node)[0])
        return None

    walk(body, visit, order="pre")
    return found


def _not_cpu(target):
    return int(target.get_target_device_type()) != 1  # kDLCPU


def _cuda_or_rocm(target):
    return int(target.get_target_device_type()) in (2, 10)  # kDLCUDA, kDLROCM


def _thread_tag(node):
    """The thread a thread environment binds: its IterVar's tag on apache/tvm, the first
    argument of ``launch_thread`` on tvm-tirx (None for a ``device_scope``)."""
    iter_var = getattr(node, "node", None)
    if iter_var is not None:
        return getattr(iter_var, "thread_tag", None)
    args = getattr(node, "args", None)
    return str(args[0].value) if args and isinstance(args[0], ir.StringImm) else None


def _threadidx_x_region(node):
    """A device region is the environment of a threadIdx.x binding; a target attribute, a
    device scope or another thread binding opens none."""
    return ir.is_thread_env(node) and _thread_tag(node) == "threadIdx.x"


def _first_use_decides(entry, how):
    if not entry[1]:
        entry[2] = how
    entry[1] = True


_correct_kernel_use = fix._kernel_use
_correct_host_device = fix._host_device

# wrong fix -> {attribute of reference_fixes.host_scalar: its wrong replacement}
_PATCHES = {
    "pass-zero": {"_launch_value": _zero},
    "pass-first-value": {"_launch_value": _first_value},
    "pass-last-value": {"_launch_value": _last_value},
    "per-kernel": {"_by_value_in_region": _read_only_in_region},
    "address-is-read": {"_kernel_use": _address_is_read},
    "global-too": {"_is_candidate": lambda alloc: True},
    "s1-only": {"_by_value_in_region": _no_by_value},
    "s2-only": {"_annotate_host_memory": _no_annotation},
    "annotation-replaces-others": {"_host_memory_annotations": _device_type_only},
    "s3-enclosing-device-id": {"_host_device": _enclosing_device_id},
    "views-of-data-only": {"_points_into": _data_views_only},
    "view-declaration-is-host-use": {"_view_operands": lambda data: [data]},
    "calls-are-not-host-uses": {"_host_use": lambda node: isinstance(node, (*ir.LOADS, ir.Store))},
    "first-region-only": {"_by_value_in_region": _first_region_only},
    "module-kernels-are-host-calls": {"_launched_functions": lambda func, mod: ([], set())},
    "symbol-launches-are-host-calls": {"_SYMBOL_LAUNCHES": ()},
    "top-level-cells-only": {"_host_local_buffers": _top_level_cells},
    "not-cpu-predicate": {"launched_by_device_runtime": _not_cpu},
    "cuda-and-rocm-only": {"launched_by_device_runtime": _cuda_or_rocm},
    "vector-cell-by-value": {"_is_single_element_load": _any_lanes_single_element_load},
    "threadIdx-x-kernels-only": {
        "ir": SimpleNamespace(**{**vars(ir), "is_device_region": _threadidx_x_region})
    },
    "first-kernel-use-decides": {"_note_kernel_use": _first_use_decides},
    "tensor-is-host-use": {"_TENSOR_ARGUMENTS": ()},
}
for _name in (
    "reject-stores-only",
    "no-rejection",
    "reject-kernel-shared",
    "annotate-kernel-shared",
    "host-only-unannotated",
):
    _PATCHES[_name] = {"_placement": _placement_variant(_name)}
# wrong fix -> the one pass of the reference fix it installs
_HALVES = {"s3-missing": "SplitHostDevice"}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    uninstall = patched_install(fix, _PATCHES.get(name, {}))
    if name in _HALVES:  # undone by the reference fix's own uninstall
        transform = ir.transform
        for pass_name in fix._WRAPPERS:
            if pass_name != _HALVES[name]:
                setattr(transform, pass_name, getattr(transform, pass_name).__wrapped__)
    return uninstall


# ---------------------------------------------------------------------------------------------
# blind-* wrong fixes: written without reading the tests


import tvm_ffi  # noqa: E402

from harness.tvm_line import LINE  # noqa: E402

_reference_single_element_load = fix._is_single_element_load
_reference_placement = fix._placement
_reference_host_local_buffers = fix._host_local_buffers
if LINE == "tvm":
    import tvm.tirx as _stmts
else:
    import tvm_tirx.ir as _stmts
_WHILE = _stmts.While


def _fresh_per_load(region, by_value, pending):
    """``_pass_by_value`` with a fresh Var for every load, none shared by a buffer's loads."""

    def replace(load):
        source = loaded(load)
        i = -1 if source is None else fix._index(by_value, source)
        if i < 0:
            return load
        var = ir.Var(source.name, str(source.ty.dtype))
        pending.append((var, load))
        return var

    return tvm_ffi.structural_map(region, (ir.LOADS, replace))


def _any_device_type(alloc):
    """``_host_device`` that follows the annotation whatever its value."""
    annotations = fix._annotations(alloc)
    if fix._DEVICE_TYPE not in annotations:
        return None
    return int(annotations[fix._DEVICE_TYPE]), 0


def _tensor_not_rejected(host, kernel, needs_pointer):
    """``_placement`` without the tensor rejection: a host use wins over a tensor."""
    if needs_pointer == fix._TENSOR_USE:
        needs_pointer = None
    return _reference_placement(host, kernel, needs_pointer)


def _direct_views(body, buffers):
    """``_views`` that resolves a view's data against the buffers only, not earlier views."""
    views = []

    def visit(node):
        view = fix._view_definition(node)
        if view is None:
            return None
        alias, data = view
        i = fix._points_into(data, list(buffers))
        if i >= 0:
            views.append((alias, i))
        return None

    walk(body, visit, order="pre")
    return views


def _rewrite_top_level_kernels(func, mod, pending):
    """``_rewrite_host_func`` that looks for kernels in the host code's statement sequence
    only, not inside host loops or branches."""
    buffers, host_memory, by_value = fix._classify(func, mod)
    if not buffers:
        return func

    def on_stmt(stmt, mutator):
        if ir.is_device_region(stmt):
            region_values = fix._by_value_in_region(stmt, by_value, buffers)
            return fix._pass_by_value(stmt, region_values, pending) if region_values else stmt
        if isinstance(stmt, ir.SeqStmt) or allocation(stmt) is not None:
            return mutator.default_mutate(stmt)
        return stmt

    body = tvm_ffi.structural_mutate(func.body, (ir.Stmt, on_stmt))
    body = fix._annotate_host_memory(body, host_memory)
    return func if body.same_as(func.body) else func.with_body(body)


def _regions_outside_while(body):
    """``_regions`` that does not look into host while loops."""
    regions = []

    def visit(node):
        if isinstance(node, _WHILE):
            return WalkResult.SKIP
        if ir.is_device_region(node):
            regions.append(node)
            return WalkResult.SKIP
        return None

    walk(body, visit, order="pre")
    return regions


def _stays_on_stack_any_scope(buffer):
    """The CPU stack rule without its scope condition."""
    elements = fix._constant_elements(buffer)
    dtype = tvm_ffi.dtype(str(buffer.ty.dtype))
    nbytes = (dtype.bits * dtype.lanes + 7) // 8
    return elements is not None and 0 < elements * nbytes < fix._MAX_STACK_ALLOCA


_PATCHES["blind-per-load-params"] = {"_pass_by_value": _fresh_per_load}
_PATCHES["blind-s3-alloc-only"] = {
    "ir": SimpleNamespace(**{**vars(ir), "FREE_WORKSPACE": "(the free is not relocated)"})
}
_PATCHES["blind-s3-free-only"] = {"workspace_of": lambda stmt: None}
_PATCHES["blind-any-device-type"] = {"_host_device": _any_device_type}
_PATCHES["blind-tensor-not-rejected"] = {"_placement": _tensor_not_rejected}
_PATCHES["blind-views-one-level"] = {"_views": _direct_views}
_PATCHES["blind-s2-top-level-kernels"] = {"_rewrite_host_func": _rewrite_top_level_kernels}
_PATCHES["blind-s1-kernels-in-while-unseen"] = {"_regions": _regions_outside_while}
_PATCHES["blind-stack-any-scope"] = {"_stays_on_stack": _stays_on_stack_any_scope}
_PATCHES["blind-first-cell-only"] = {
    "_host_local_buffers": lambda body: _reference_host_local_buffers(body)[:1]
}
