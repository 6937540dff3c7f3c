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
"""Blind round 5 wrong fixes of the host-level scalar report (patches/0002)."""

import tvm_ffi

from bugs.host_scalar import reference_fix as fix
from harness.tvm_line import (
    WalkResult,
    allocation,
    call_like,
    ir,
    left_on_cpu,
    walk,
    workspace_of,
    workspace_with,
)
from harness.wrong_fixes import patched_install

WRONG_FIXES = {
    "blind5-vector-cell-by-value": "the by-value test forgets the lanes: a one-element vector "
    "cell read by a kernel is passed as a vector scalar instead of rejected",
    "blind5-views-untraced": "views of a host cell are not collected: a kernel reading the cell "
    "through a host-declared view is not seen, the cell becomes host memory",
    "blind5-tensor-is-host-use": "a tensor made of the cell for a packed call "
    "(T.call_packed('f', c)) counts as a host use",
    "blind5-first-kernel-only": "kernel uses are collected in the first device region only, "
    "not over the whole function",
    "blind5-stack-limit-inclusive": "the CPU stack rule keeps an annotated allocation of "
    "exactly kMaxStackAlloca bytes on the stack (<= instead of <)",
    "blind5-any-device-type": "any device_type annotation is lowered as kDLCPU instead of "
    "rejecting values other than 1",
    "blind5-free-keeps-device": "the workspace allocation is moved to (kDLCPU, 0) but its "
    "TVMBackendFreeWorkspace keeps the function's device",
    "blind5-kernel-address-by-value": "a kernel's address_of(c[0]) is taken for a read of its "
    "value: the cell is passed by value instead of rejected",
}

UNSEEN = {
    "blind5-stack-limit-inclusive": "a step of the Python stand-in only: the stack rule is "
    "LowerTVMBuiltin's own unchanged line (constant_size * nbytes < kMaxStackAlloca), to which "
    "patch 0002 hands an annotated allocation as kDLCPU; a C++ fix does not restate it (proof: "
    "test_host_allocation's 1024-byte cases kill the stand-in's copy)",
}


def _single_element_any_lanes(load):
    buffer = fix.loaded(load)
    return fix._constant_elements(buffer) == 1 and all(  # mistake: lanes not checked
        isinstance(i, ir.IntImm) and i.value == 0 for i in load.indices
    )


def _no_views(_body, _buffers):
    return []  # mistake: aliases of the cells are not collected


def _classify_uses_tensor_is_host(body, buffers, launched=None):
    uses = [[False, False, None] for _ in buffers]
    views = fix._views(body, buffers)
    tracked = list(buffers) + [view for view, _ in views]

    def base(i):
        return i if i < len(buffers) else views[i - len(buffers)][1]

    def on_host(i, node):
        if fix._host_use(node):
            uses[base(i)][0] = True

    def on_kernel(i, node):
        how = fix._kernel_use(node) if i < len(buffers) else "uses a view of"
        fix._note_kernel_use(uses[base(i)], how)

    fix._walk_uses(
        body,
        tracked,
        on_host,
        host_only=True,
        launched=launched,
        on_launch=on_kernel,
        on_tensor=on_host,  # mistake: a tensor argument is a host use
    )
    for region in fix._regions(body):
        fix._walk_uses(region, tracked, on_kernel)
    return [tuple(u) for u in uses]


def _first_region_only(body):
    regions = []

    def visit(node):
        if ir.is_device_region(node):
            if not regions:  # mistake: the later kernels are not looked at
                regions.append(node)
            return WalkResult.SKIP
        return None

    walk(body, visit, order="pre")
    return regions


def _stays_on_stack_inclusive(buffer):
    elements = fix._constant_elements(buffer)
    dtype = tvm_ffi.dtype(str(buffer.ty.dtype))
    nbytes = (dtype.bits * dtype.lanes + 7) // 8
    return (
        fix.scope_of(buffer) == "global"
        and elements is not None
        and 0 < elements * nbytes <= fix._MAX_STACK_ALLOCA  # mistake: <=
    )


def _host_device_unchecked(alloc):
    if fix._DEVICE_TYPE not in fix._annotations(alloc):
        return None
    return fix._KDLCPU, 0  # mistake: the annotation's value is not checked


def _relocate_alloc_only(func, records):
    def on_stmt(stmt, mutator):
        alloc = allocation(stmt)
        if alloc is not None:
            record = fix._record_of(records, alloc[0])
            return left_on_cpu(stmt) if record is not None and record[2] else stmt
        lowered = workspace_of(stmt)
        record = None if lowered is None else fix._record_of(records, lowered[0])
        if record is None:
            return mutator.default_mutate(stmt)
        call = lowered[1]
        args = [*fix._device_args(record[1], call.args[:2]), *call.args[2:]]
        return workspace_with(stmt, call_like(call, args))

    # mistake: the free call is not relocated
    body = tvm_ffi.structural_mutate(func.body, [(ir.Stmt, on_stmt)])
    return func if body.same_as(func.body) else func.with_body(body)


def _kernel_use_address_is_value(node):
    if isinstance(node, ir.LOADS):
        return None if fix._is_single_element_load(node) else "loads an element of"
    if isinstance(node, ir.Store):
        return "stores into"
    if isinstance(node, ir.Call):
        return None  # mistake: address_of(c[0]) taken for a read of c[0]
    return "uses the pointer of"


_PATCHES = {
    "blind5-vector-cell-by-value": {"_is_single_element_load": _single_element_any_lanes},
    "blind5-views-untraced": {"_views": _no_views},
    "blind5-tensor-is-host-use": {"_classify_uses": _classify_uses_tensor_is_host},
    "blind5-first-kernel-only": {"_regions": _first_region_only},
    "blind5-stack-limit-inclusive": {"_stays_on_stack": _stays_on_stack_inclusive},
    "blind5-any-device-type": {"_host_device": _host_device_unchecked},
    "blind5-free-keeps-device": {"_relocate": _relocate_alloc_only},
    "blind5-kernel-address-by-value": {"_kernel_use": _kernel_use_address_is_value},
}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    return patched_install(fix, _PATCHES[name])
