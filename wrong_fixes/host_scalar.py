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
"""Wrong fixes of the host-level scalar report: variants of reference_fixes/host_scalar.py.

Each replaces one step of the reference fix (S1 in LowerTVMBuiltin, S2 in SplitHostDevice)
and then installs it as usual; ``s1-only`` / ``s2-only`` install one half of it.
"""

import tvm_ffi

import tvm
from reference_fixes import host_scalar as fix
from tvm import tirx

WRONG_FIXES = {
    "pass-zero": "S2 passes a zero of the cell's dtype instead of the cell's value",
    "pass-first-value": "S2 passes the first value stored into the cell, not its value at launch",
    "pass-last-value": "S2 passes the last value stored into the cell, not its value at launch",
    "s1-only": "S1 only: the cell stays on the host stack, the kernel still gets its pointer",
    "s2-only": "S2 only: the kernel gets the value, the cell is still a device workspace",
    "written-cells-too": "S2 also for cells the kernel writes (loads by value, stores to the cell)",
    "global-cells-too": "S2 also for one-element global buffers (device memory read by the host)",
    "s1-cpu-too": "S1 also on kDLCPU: a CPU host cell leaves the CPU workspace for the stack",
    "s1-global-too": "S1 also for small global allocations: kernel intermediates on the host stack",
    "s1-any-size": "S1 without the kMaxStackAlloca bound: large local allocations on the stack",
    "s1-target-kind": "S1 reads the target's device type, ignoring the device_type attribute",
}


def _stores(func, cell):
    """The values stored into ``cell`` by ``func``, in program order."""
    values = []

    def visit(node):
        if isinstance(node, tirx.BufferStore) and node.buffer.same_as(cell):
            values.append(node.value)

    tvm_ffi.structural_walk(func.body, visit, order="pre")
    return values


def _zero(cell, _func):
    return tirx.const(0, str(cell.dtype))


def _first_value(cell, func):
    return _stores(func, cell)[0]


def _last_value(cell, func):
    return _stores(func, cell)[-1]


def _is_one_element(buffer):
    return fix._constant_elements(buffer) == 1


def _read_cells(region, cells):
    read, _ = fix._cell_uses(region, cells)
    return [cells[i] for i in sorted(read)]


def _on_any_device(buffer, device_type):
    return device_type is not None and fix._stays_on_stack(buffer)


def _small_any_scope(buffer):
    elements = fix._constant_elements(buffer)
    dtype = tvm.runtime.DataType(str(buffer.dtype))
    nbytes = (dtype.bits * dtype.lanes + 7) // 8
    return elements is not None and 0 < elements * nbytes < fix._MAX_STACK_ALLOCA


# wrong fix -> {attribute of reference_fixes.host_scalar: its wrong replacement}
_PATCHES = {
    "pass-zero": {"_launch_value": _zero},
    "pass-first-value": {"_launch_value": _first_value},
    "pass-last-value": {"_launch_value": _last_value},
    "written-cells-too": {"_read_only_cells": _read_cells},
    "global-cells-too": {"_is_cell": _is_one_element},
    "s1-cpu-too": {"_keeps_on_host": _on_any_device},
    "s1-global-too": {"_stays_on_stack": _small_any_scope},
    "s1-any-size": {"_MAX_STACK_ALLOCA": 1 << 40},
    "s1-target-kind": {"_DEVICE_TYPE_ATTR": None},
}
# wrong fix -> the one pass of the reference fix it installs
_HALVES = {"s1-only": "LowerTVMBuiltin", "s2-only": "SplitHostDevice"}


def install(name):
    """Install the wrong fix ``name``; return a function that removes it."""
    if name not in WRONG_FIXES:
        raise ValueError(f"unknown wrong fix {name!r}; known: {', '.join(WRONG_FIXES)}")
    patches = _PATCHES.get(name, {})
    saved = {attr: getattr(fix, attr) for attr in patches}
    for attr, value in patches.items():
        setattr(fix, attr, value)
    undo_fix = fix.install()
    if name in _HALVES:
        transform = tvm.tirx.transform
        for pass_name in fix._WRAPPERS:
            if pass_name != _HALVES[name]:
                setattr(transform, pass_name, getattr(transform, pass_name).__wrapped__)

    def uninstall():
        undo_fix()
        for attr, value in saved.items():
            setattr(fix, attr, value)

    return uninstall
