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
"""LowerTVMBuiltin's stack rule for host memory of a vector dtype (proof only).

A mutant of bugs/host_scalar/reference_fix.py (scripts/mutants.py) that computes an element's
bytes as ``bits / lanes`` instead of ``bits * lanes`` survived every other test: their
allocations are of scalar dtypes, where the two agree. The rule (S3, as on kDLCPU): a
``global`` allocation that SplitHostDevice marked as host memory stays on the stack when its
constant size is below ``runtime::kMaxStackAlloca`` (1024 bytes), else it is
``TVMBackendAllocWorkspace(1, 0, ...)``. For a vector dtype the size counts every lane: 64
elements of float32x4 are 1024 bytes, a workspace; 63 stay on the stack.
"""

import sys
from pathlib import Path

import pytest
import tvm_ffi

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parent))
import host_scalar_cases as cases

CUDA = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})
KDLCPU = 1
HOST = {"device_type": KDLCPU}  # what SplitHostDevice puts on host memory
REASON = "host-level scalar cell of a cuda host function becomes a device workspace"


class HostMemoryOnDevice(AssertionError):
    """An allocation marked as host memory is not where the CPU rule puts it."""


def host_allocation(dtype, extent):
    """A cuda host function (device id 1) with a ``global`` allocation marked host memory"""
    lanes = tvm_ffi.dtype(dtype).lanes
    value = T.Broadcast(tvm.tirx.const(1.5, dtype.split("x")[0]), lanes)

    @I.ir_module
    class Before:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr({"target": CUDA, "tirx.is_host_func": True})
            T.attr("default", "device_id", 1)
            c = T.alloc_buffer((extent,), dtype, scope="global", annotations=HOST)
            c[0] = value

    return Before


@pytest.mark.xfail(strict=True, raises=HostMemoryOnDevice, reason=REASON)
@pytest.mark.parametrize(
    "dtype, extent, on_stack",
    [("float32x4", 63, True), ("float32x4", 64, False), ("float16x2", 256, False)],
)
def test_vector_host_memory_is_sized_by_all_its_lanes(dtype, extent, on_stack):
    """Host memory of a vector dtype is a CPU workspace from 1024 bytes on, lanes counted."""
    after = tvm.tirx.transform.LowerTVMBuiltin()(host_allocation(dtype, extent))
    devices = cases.workspace_devices(after)
    if devices != ([] if on_stack else [(KDLCPU, 0)]):
        raise HostMemoryOnDevice(f"{dtype} x {extent}: workspaces {devices}")
