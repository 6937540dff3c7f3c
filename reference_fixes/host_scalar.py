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
"""Reference fix for the host-level scalar report (TIRx/CUDA, seeds/000).

A host-level scalar cell (``c: T.float32 = v``, on 0.27 also ``c = v``) is a one-element
``local`` buffer allocated outside any device region. Today LowerTVMBuiltin turns it into
``TVMBackendAllocWorkspace(<device type of the target>, ...)`` while the store that
initializes it stays in host code, and SplitHostDevice passes its data pointer to the kernel.
The C++ patch this module is the blueprint for changes two places:

S1  src/tirx/transform/lower_tvm_builtin.cc, ``BuiltinLower::VisitStmt_(const AllocBufferNode*)``:
    before the device-workspace lowering, when ``device_type_`` is not kDLCPU, an allocation
    whose storage scope is ``local`` and whose size is a positive constant below
    ``runtime::kMaxStackAlloca`` bytes is returned unchanged (a host stack allocation, exactly
    as a small ``global`` allocation on kDLCPU is today). The pass only runs on host functions
    (``IsHostFunc``), so every such allocation is a host-level cell. ``global`` scope keeps
    today's rule (device workspace on non-CPU devices, stack for small CPU allocations), and
    so does every allocation on kDLCPU: a host-level ``local`` cell there is a CPU workspace,
    host memory, which is correct and stays as it is (the smallest change that fixes the bug).

S2  src/tirx/transform/split_host_device.cc, ``HostDeviceSplitter::SplitDeviceFunc`` (with a
    small collector of the host-level ``local`` one-element AllocBuffers of ``cur_func_``):
    when an undefined buffer of the device region is such a cell and the region only reads
    it (BufferLoad at index 0, no store, no other use of the buffer or its data pointer),
    the kernel gets a scalar parameter of the buffer's dtype instead of ``<name>_ptr``, and the
    launch passes ``BufferLoad(cell, {0})`` as its argument (the value the cell holds at that
    launch, so a host reassignment between two launches is seen); the region's loads of the
    cell are substituted by the parameter. This is what ``c: T.let[T.float32] = v`` gives today.

Kernel-level cells (allocated inside the device region) and ``global`` buffers are untouched.
A host-level cell that a kernel writes (or whose pointer it takes) is outside S2: the kernel
still gets its pointer, which after S1 is host stack memory (today it is device memory that
the host writes); such code is wrong either way and no test here relies on it.

``install()`` reproduces S1 and S2 in-process on the released wheel:

* ``tvm.tirx.transform.SplitHostDevice`` is wrapped: right before the original pass, the
  region's loads of each read-only cell are replaced by a fresh scalar Var, which the
  original pass's ordinary parameter capture turns into a scalar kernel parameter; right
  after it, the host's launch argument (that Var) is replaced by ``cell[0]``. The result is
  exactly the C++ patch's.
* ``tvm.tirx.transform.LowerTVMBuiltin`` is wrapped: the S1 allocations of host functions get
  the ``disable_lower_builtin`` annotation, the original pass runs, and the annotations added
  here are removed again, so the result is the plain allocation the C++ patch keeps.

Both pipelines of ``tvm.tirx.compilation_pipeline`` and the s_tir one (and their
``finalize_host_passes``) look the pass constructors up on ``tvm.tirx.transform`` each time
they run, so ``tvm.compile`` and ``tvm.tirx.build`` use the wrapped passes. ``install()``
returns the undo function (installing twice is a no-op); ``unfixed()`` is a context manager
that runs TVM's own passes meanwhile, for no-regression comparisons.
"""

import contextlib

import tvm_ffi

import tvm
from tvm import tirx

# AttrStmt keys that open a device region (what SplitHostDevice's annotator splits at).
_DEVICE_REGION_KEYS = ("target", "thread_extent", "device_scope")
_DISABLE_LOWER_BUILTIN = "disable_lower_builtin"
# the AttrStmt key that overrides the target's device type inside LowerTVMBuiltin
_DEVICE_TYPE_ATTR = "device_type"
_MAX_STACK_ALLOCA = 1024  # runtime::kMaxStackAlloca
_KDLCPU = 1


def _is_device_region(stmt):
    return isinstance(stmt, tirx.AttrStmt) and stmt.attr_key in _DEVICE_REGION_KEYS


def _constant_elements(buffer):
    total = 1
    for extent in buffer.shape:
        if not isinstance(extent, tvm.tirx.IntImm):
            return None
        total *= int(extent.value)
    return total


def _index(items, obj):
    for i, item in enumerate(items):
        if item.same_as(obj):
            return i
    return -1


# ---------------------------------------------------------------------------------------------
# S2: host-level read-only local scalar cells reach the kernel by value


def _is_cell(buffer):
    """A host-level scalar cell: a one-element ``local`` buffer."""
    return buffer.scope() == "local" and _constant_elements(buffer) == 1


def _host_cells(body):
    """The cells allocated outside every device region."""
    cells = []

    def visit(node):
        if _is_device_region(node):
            return tvm_ffi.WalkResult.SKIP
        if isinstance(node, tirx.AllocBuffer) and _is_cell(node.buffer):
            cells.append(node.buffer)
        return None

    tvm_ffi.structural_walk(body, visit, order="pre")
    return cells


def _cell_uses(region, cells):
    """(indices of the cells ``region`` reads through ``cell[0]``, indices of the cells it
    uses in any other way: stores, other indices, aliases, their data pointer)."""
    read, escaped = set(), set()

    def visit(node):
        if isinstance(node, tvm.ir.TensorLoad):
            i = _index(cells, node.source)
            if i >= 0:
                index = list(node.indices)
                if len(index) == 1 and isinstance(index[0], tirx.IntImm) and index[0].value == 0:
                    read.add(i)
                else:
                    escaped.add(i)
                return tvm_ffi.WalkResult.SKIP
        elif isinstance(node, tvm.ir.Var):
            i = _index(cells, node)
            if i >= 0:
                escaped.add(i)
        return None

    tvm_ffi.structural_walk(region, visit, order="pre")
    return read, escaped


def _read_only_cells(region, cells):
    """The cells that ``region`` reads through ``cell[0]`` and uses in no other way."""
    read, escaped = _cell_uses(region, cells)
    return [cells[i] for i in sorted(read - escaped)]


def _launch_value(cell, _host_func):
    """What the host passes for a read-only cell at a launch: the cell loaded right there."""
    return tirx.BufferLoad(cell, [tirx.const(0, "int32")])


def _pass_by_value(region, cells, pending):
    """Replace the region's loads of its read-only cells by fresh scalar Vars.

    SplitHostDevice then makes each Var a scalar kernel parameter and passes it at the launch;
    ``pending`` gets the (Var, cell) pairs, so that each launch argument becomes a cell value.
    """
    used = _read_only_cells(region, cells)
    if not used:
        return region
    values = [tirx.Var(cell.name, str(cell.dtype)) for cell in used]
    pending.extend(zip(values, used))

    def replace(load):
        i = _index(used, load.source)
        return values[i] if i >= 0 else load

    return tvm_ffi.structural_map(region, (tvm.ir.TensorLoad, replace))


def _rewrite_host_func(func, pending):
    target = func.attrs.get("target") if func.attrs is not None else None
    if target is None or target.host is None:
        return func  # SplitHostDevice annotates device regions only for targets with a host
    cells = _host_cells(func.body)
    if not cells:
        return func

    def on_stmt(stmt, mutator):
        if _is_device_region(stmt):
            return _pass_by_value(stmt, cells, pending)
        return mutator.default_mutate(stmt)

    body = tvm_ffi.structural_mutate(func.body, (tirx.Stmt, on_stmt))
    return func if body.same_as(func.body) else func.with_body(body)


def _launch_values(func, pending):
    """Host side, after SplitHostDevice: each recorded Var, now a launch argument, becomes
    the value of its cell at that launch (``_launch_value``)."""
    if func.attrs is not None and func.attrs.get("tirx.is_global_func"):
        return func  # a kernel: its parameter is its own Var

    def replace(var):
        for value, cell in pending:
            if value.same_as(var):
                return _launch_value(cell, func)
        return var

    body = tvm_ffi.structural_map(func.body, (tvm.ir.Var, replace))
    return func if body.same_as(func.body) else func.with_body(body)


def HostScalarByValue(original):
    """S2: ``original`` (TVM's SplitHostDevice) between the two halves of the rewrite."""
    pending = []

    @tvm.tirx.transform.prim_func_pass(opt_level=0, name="reference_fixes.HostCellsToValues")
    def before(func, _mod, _ctx):
        return _rewrite_host_func(func, pending)

    @tvm.tirx.transform.prim_func_pass(opt_level=0, name="reference_fixes.HostCellLaunchValues")
    def after(func, _mod, _ctx):
        return _launch_values(func, pending) if pending else func

    return tvm.transform.Sequential([before, original, after], name="reference_fixes.S2")


# ---------------------------------------------------------------------------------------------
# S1: host-level local allocations stay on the host stack


def _is_host_func(func):
    attrs = func.attrs if func.attrs is not None else {}
    flag = attrs.get("tirx.is_host_func")
    if flag is not None and int(flag) != 0:
        return True
    target = attrs.get("target")
    return target is not None and "cpu" in list(target.keys)


def _stays_on_stack(buffer):
    if buffer.scope() != "local":
        return False
    elements = _constant_elements(buffer)
    dtype = tvm.runtime.DataType(str(buffer.dtype))
    nbytes = (dtype.bits * dtype.lanes + 7) // 8
    return elements is not None and 0 < elements * nbytes < _MAX_STACK_ALLOCA


def _keeps_on_host(buffer, device_type):
    """S1: on a known non-CPU device, a small constant-size local allocation stays as it is."""
    return device_type is not None and device_type != _KDLCPU and _stays_on_stack(buffer)


def _set_mark(func, marked, add):
    """Add (or remove again) the disable_lower_builtin mark on the S1 allocations of func."""
    target = func.attrs.get("target") if func.attrs is not None else None
    # the device type BuiltinLower sees: the target kind's, unless a device_type attr overrides
    device = [None if target is None else int(target.kind.default_device_type)]

    def on_attr(stmt, mutator):
        if stmt.attr_key != _DEVICE_TYPE_ATTR:
            return mutator.default_mutate(stmt)
        value = stmt.value
        device.append(int(value.value) if isinstance(value, tirx.IntImm) else None)
        try:
            return mutator.default_mutate(stmt)
        finally:
            device.pop()

    def on_alloc(alloc, _mutator):
        annotations = dict(alloc.annotations) if alloc.annotations is not None else {}
        if add:
            if _DISABLE_LOWER_BUILTIN in annotations:
                return alloc
            if not _keeps_on_host(alloc.buffer, device[-1]):
                return alloc
            marked.append(alloc.buffer)
            annotations[_DISABLE_LOWER_BUILTIN] = tirx.const(1, "int32")
        else:
            if _index(marked, alloc.buffer) < 0:
                return alloc
            annotations.pop(_DISABLE_LOWER_BUILTIN, None)
        return tirx.AllocBuffer(alloc.buffer, annotations or None, alloc.span)

    body = tvm_ffi.structural_mutate(
        func.body, [(tirx.AttrStmt, on_attr), (tirx.AllocBuffer, on_alloc)]
    )
    return func if body.same_as(func.body) else func.with_body(body)


def _map_host_funcs(mod, fn):
    updates = {}
    for gvar, func in mod.functions.items():
        if isinstance(func, tirx.PrimFunc) and _is_host_func(func):
            new = fn(func)
            if not new.same_as(func):
                updates[gvar] = new
    if not updates:
        return mod
    mod = mod.clone()  # the pass must not change its input module in place
    for gvar, func in updates.items():
        mod.update_func(gvar, func)
    return mod


def _wrap_lower_tvm_builtin(original):
    def LowerTVMBuiltin():
        @tvm.transform.module_pass(opt_level=0, name="reference_fixes.LowerTVMBuiltin")
        def _lower(mod, _ctx):
            marked = []
            mod = _map_host_funcs(mod, lambda f: _set_mark(f, marked, add=True))
            mod = original()(mod)
            if marked:
                mod = _map_host_funcs(mod, lambda f: _set_mark(f, marked, add=False))
            return mod

        return _lower

    LowerTVMBuiltin.__doc__ = original.__doc__
    LowerTVMBuiltin.__wrapped__ = original
    return LowerTVMBuiltin


def _wrap_split_host_device(original):
    def SplitHostDevice():
        return HostScalarByValue(original())

    SplitHostDevice.__doc__ = original.__doc__
    SplitHostDevice.__wrapped__ = original
    return SplitHostDevice


_WRAPPERS = {
    "LowerTVMBuiltin": _wrap_lower_tvm_builtin,
    "SplitHostDevice": _wrap_split_host_device,
}


def _installed(name):
    return getattr(getattr(tvm.tirx.transform, name), "__wrapped__", None) is not None


def install():
    """Install S1 + S2 in ``tvm.tirx.transform``; return the undo function.

    Installing twice is a no-op whose undo does nothing (the first undo removes the fix).
    """
    transform = tvm.tirx.transform
    if all(_installed(name) for name in _WRAPPERS):
        return lambda: None
    saved = {name: getattr(transform, name) for name in _WRAPPERS}
    for name, wrap in _WRAPPERS.items():
        setattr(transform, name, wrap(saved[name]))

    def uninstall():
        for name, func in saved.items():
            setattr(transform, name, func)

    return uninstall


@contextlib.contextmanager
def unfixed():
    """Temporarily run with TVM's own passes, whether or not the fix is installed."""
    transform = tvm.tirx.transform
    current = {name: getattr(transform, name) for name in _WRAPPERS}
    for name, func in current.items():
        while getattr(func, "__wrapped__", None) is not None:
            func = func.__wrapped__
        setattr(transform, name, func)
    try:
        yield
    finally:
        for name, func in current.items():
            setattr(transform, name, func)
