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
"""Second blind round: wrong fixes of the host-level scalar report: each is the reference fix
(bugs/host_scalar/reference_fix.py) with one plausible mistake in one step of S1-S3."""

import tvm_ffi

from bugs.host_scalar import reference_fix as fix
from bugs.host_scalar.wrong_fixes import _any_lanes_single_element_load, _direct_views
from harness.tvm_line import ir, walk

WRONG_FIXES = {
    "blind2-views-of-views": "S1 follows only views declared directly on a cell, not views of "
    "views (one sweep, no fixpoint): a host store through a view of a view is missed",
    "blind2-raw-pointer-not-host-use": "S1 counts loads, stores and address_of as host uses but "
    "not the cell's bare pointer handed to a packed/extern call (`c.data`)",
    "blind2-tensor-is-host-use": "S1 has no tensor rule: the data of a tensor made for a call "
    '(`T.call_packed("f", c)`) counts as a host use of the pointer',
    "blind2-top-level-kernels-only": "S2 rewrites only the kernels among the host body's "
    "top-level statements: a kernel launched inside a host loop/if keeps the cell's pointer",
    "blind2-initial-value": "S2 passes each kernel the value first stored into the cell (its "
    "initializer) instead of the value the cell holds at that launch",
    "blind2-vector-cell-by-value": "S1's single-element test ignores vector lanes: a one-element "
    "float32x4 cell that kernels load is passed by value instead of rejected",
    "blind2-no-metal": "the device-runtime list leaves out Metal (kDLMetal = 8): Metal functions "
    "keep host cells on the device",
    "blind2-free-not-relocated": "S3 moves TVMBackendAllocWorkspace of host memory to (kDLCPU, "
    "0) but leaves its TVMBackendFreeWorkspace on the function's device",
    "blind2-first-kernel-use-decides": "S1 records only the first kernel use of a cell: a later "
    "kernel's store (or address) no longer rejects a cell an earlier kernel only read",
}


# --- blind2-raw-pointer-not-host-use ---------------------------------------------------------


def _host_use_no_pointer(node):
    """A reference of the host code is a use when it accesses the cell: a load, a store or
    ``address_of``; the bare pointer (``c.data`` handed to a call) is taken for no access."""
    return not isinstance(node, ir.Var)


# --- blind2-tensor-is-host-use (and rounds 3 and 4's mistakes of _classify_uses) -----------


def _classify_uses_with(
    host_views=True, kernel_view_pointer=True, tensor_use="device", launch_loads_host=True
):
    """``_classify_uses`` with one mistake, named by the keyword that differs from its default
    (the reference's): ``host_views`` False: the host's accesses through a view are no use of
    the viewed buffer; ``kernel_view_pointer`` False: a kernel's load through a view is judged
    as a load of the buffer itself; ``tensor_use``: the data of a tensor made for a call is a
    use of the device ("device"), of the host ("host"), or walked as any other host reference
    (None: no tensor rule); ``launch_loads_host`` False: a load in the arguments of a launch is
    the kernel's use."""

    def classify_uses(body, buffers, launched=None):
        uses = [[False, False, None] for _ in buffers]
        views = fix._views(body, buffers)
        tracked = list(buffers) + [view for view, _ in views]
        in_args = set()  # the loads in the arguments of a launch

        def base(i):
            return i if i < len(buffers) else views[i - len(buffers)][1]

        def on_kernel(i, node):
            if i < len(buffers) or not kernel_view_pointer:
                how = fix._kernel_use(node)
            else:
                how = "uses a view of"
            fix._note_kernel_use(uses[base(i)], how)

        def on_host(i, node):
            if not host_views and i >= len(buffers):
                return
            if not launch_loads_host and node.__chandle__() in in_args:
                on_kernel(i, node)
            elif fix._host_use(node):
                uses[base(i)][0] = True

        def on_tensor(i, _node):
            if tensor_use == "host":
                uses[base(i)][0] = True
            else:
                uses[base(i)][1:] = [True, fix._TENSOR_USE]

        original = fix._launch_args

        def launch_args(node, launched_):
            args = original(node, launched_)
            for arg in args or ():

                def note(n):
                    if isinstance(n, ir.LOADS):
                        in_args.add(n.__chandle__())

                walk(arg, note, order="pre")
            return args

        if not launch_loads_host:
            fix._launch_args = launch_args
        try:
            fix._walk_uses(
                body,
                tracked,
                on_host,
                host_only=True,
                launched=launched,
                on_launch=on_kernel,
                on_tensor=None if tensor_use is None else on_tensor,
            )
        finally:
            fix._launch_args = original
        for region in fix._regions(body):
            fix._walk_uses(region, tracked, on_kernel)
        return [tuple(u) for u in uses]

    return classify_uses


# --- blind2-top-level-kernels-only -----------------------------------------------------------


def _rewrite_host_func_top_level(func, mod, pending):
    """``_rewrite_host_func`` that looks for kernels among the statements of the body's
    top-level sequence only."""
    buffers, host_memory, by_value = fix._classify(func, mod)
    if not buffers:
        return func
    body = func.body
    stmts = list(body.seq) if isinstance(body, ir.SeqStmt) else [body]
    out = []
    for stmt in stmts:
        if ir.is_device_region(stmt):
            region_values = fix._by_value_in_region(stmt, by_value, buffers)
            stmt = fix._pass_by_value(stmt, region_values, pending) if region_values else stmt
        out.append(stmt)
    body = ir.SeqStmt(out) if isinstance(body, ir.SeqStmt) else out[0]
    body = fix._annotate_host_memory(body, host_memory)
    return func.with_body(body)


# --- blind2-initial-value --------------------------------------------------------------------


def _launch_value_initializer(load, host_func):
    """What the host passes for a by-value cell: the value first stored into it (its
    ``c: T.float32 = v`` initializer), else the load."""
    cell = fix.loaded(load)
    found = []

    def visit(node):
        if not found and isinstance(node, ir.Store) and fix.stored(node).same_as(cell):
            found.append(node.value)
        return None

    walk(host_func.body, visit, order="pre")
    return found[0] if found else fix.tensor_load(cell, load.indices)


# --- blind2-no-metal -------------------------------------------------------------------------


def _launched_by_device_runtime_no_metal(target):
    """kDLCUDA, kDLOpenCL, kDLVulkan, kDLROCM, kDLWebGPU: Metal (8) left out."""
    return int(target.get_target_device_type()) in (2, 4, 7, 10, 15)


# --- blind2-free-not-relocated ---------------------------------------------------------------


def _relocate_alloc_only(func, records):
    """``_relocate`` that gives the recorded workspaces their device in the allocation only."""

    def on_stmt(stmt, mutator):
        alloc = fix.allocation(stmt)
        if alloc is not None:
            record = fix._record_of(records, alloc[0])
            return fix.left_on_cpu(stmt) if record is not None and record[2] else stmt
        lowered = fix.workspace_of(stmt)
        record = None if lowered is None else fix._record_of(records, lowered[0])
        if record is None:
            return mutator.default_mutate(stmt)
        call = lowered[1]
        args = [*fix._device_args(record[1], call.args[:2]), *call.args[2:]]
        return fix.workspace_with(stmt, fix.call_like(call, args))

    body = tvm_ffi.structural_mutate(func.body, [(ir.Stmt, on_stmt)])
    return func if body.same_as(func.body) else func.with_body(body)


# --- blind2-first-kernel-use-decides ---------------------------------------------------------


def _note_first_kernel_use(entry, how):
    """Record a kernel use; once one is recorded, the later ones add nothing."""
    if entry[1]:
        return
    entry[1] = True
    if how is not None and entry[2] is None:
        entry[2] = how


PATCHES = {
    "blind2-views-of-views": {"_views": _direct_views},
    "blind2-raw-pointer-not-host-use": {"_host_use": _host_use_no_pointer},
    "blind2-tensor-is-host-use": {"_classify_uses": _classify_uses_with(tensor_use=None)},
    "blind2-top-level-kernels-only": {"_rewrite_host_func": _rewrite_host_func_top_level},
    "blind2-initial-value": {"_launch_value": _launch_value_initializer},
    "blind2-vector-cell-by-value": {"_is_single_element_load": _any_lanes_single_element_load},
    "blind2-no-metal": {"launched_by_device_runtime": _launched_by_device_runtime_no_metal},
    "blind2-free-not-relocated": {"_relocate": _relocate_alloc_only},
    "blind2-first-kernel-use-decides": {"_note_kernel_use": _note_first_kernel_use},
}
