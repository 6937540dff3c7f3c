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
"""No regression from the host-scalar reference fix (this repository only).

Modules without a ``local`` buffer that the host code of a cuda function uses compile for
cuda and llvm to exactly the same code with TVM's own LowerTVMBuiltin/SplitHostDevice and with
the fix (S1-S3 of bugs/host_scalar/reference_fix.py); LowerTVMBuiltin gives the same IR as before
for every allocation without the ``device_type`` annotation; a CPU function's host cell
compiles to the same code and computes the same result.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import tvm
import tvm.testing
from harness.accepted_gpu_kernels import GlobalIntermediate, KernelCell, N, SharedMemoryKernel
from harness.compiled_code import installed, unchanged_test
from tvm.script import ir as I
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # repository root, for `python FILE`
from bugs.host_scalar import reference_fix as fix

installed_fix = installed(fix)


# --------------------------------------------------------------------------------------------
# modules that the fix must not change


@I.ir_module
class OneElementGlobal:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        acc = T.alloc_buffer((1,), "float32")
        for i in T.thread_binding(1, thread="threadIdx.x"):
            acc[0] = B[0] + B[N - 1]
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] * acc[0]


@I.ir_module
class LetScalar:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32"), x: T.float32):
        c: T.let[T.float32] = x * T.float32(2.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] + c


@I.ir_module
class CpuLoop:
    @T.prim_func
    def main(B: T.Buffer((64,), "float32"), C: T.Buffer((64,), "float32")):
        for i in range(64):
            C[i] = B[i] * T.float32(2.0) + T.float32(1.0)


@I.ir_module
class CpuStackIntermediate:
    @T.prim_func
    def main(B: T.Buffer((64,), "float32"), C: T.Buffer((64,), "float32")):
        tmp = T.alloc_buffer((64,), "float32")
        for i in range(64):
            tmp[i] = B[i] * T.float32(2.0)
        for i in range(64):
            C[i] = tmp[63 - i]


@I.ir_module
class CpuWorkspaceIntermediate:
    @T.prim_func
    def main(B: T.Buffer((1024,), "float32"), C: T.Buffer((1024,), "float32")):
        tmp = T.alloc_buffer((1024,), "float32")
        for i in range(1024):
            tmp[i] = B[i] + T.float32(1.0)
        for i in range(1024):
            C[i] = tmp[1023 - i]


UNCHANGED = [
    pytest.param(KernelCell, "cuda", id="cuda-kernel-cell"),
    pytest.param(GlobalIntermediate, "cuda", id="cuda-global-intermediate"),
    pytest.param(OneElementGlobal, "cuda", id="cuda-one-element-global"),
    pytest.param(LetScalar, "cuda", id="cuda-let-scalar"),
    pytest.param(SharedMemoryKernel, "cuda", id="cuda-shared-memory"),
    pytest.param(CpuLoop, "llvm", id="llvm-loop"),
    pytest.param(CpuStackIntermediate, "llvm", id="llvm-stack-intermediate"),
    pytest.param(CpuWorkspaceIntermediate, "llvm", id="llvm-workspace-intermediate"),
]


test_compiled_code_is_unchanged = unchanged_test(fix, UNCHANGED)


# --------------------------------------------------------------------------------------------
# LowerTVMBuiltin allocation cases: same IR as TVM's own pass


def _host_alloc(extent, scope, device_type=None, func_attrs=None, annotations=None):
    attrs = func_attrs or {"target": tvm.target.Target("llvm")}
    dev_type = device_type if device_type is not None else 1

    @I.ir_module
    class Before:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr(attrs)
            T.attr("default", "device_id", 0)
            T.attr("default", "device_type", dev_type)
            buf = T.alloc_buffer((extent,), "float32", scope=scope, annotations=annotations)
            buf[0] = T.float32(1.0)
            buf[n] = T.float32(2.0)

    return Before


def _symbolic_alloc(scope, device_type):
    @I.ir_module
    class Before:
        @T.prim_func
        def main(n: T.int32):
            T.func_attr({"target": tvm.target.Target("llvm")})
            T.attr("default", "device_id", 0)
            T.attr("default", "device_type", device_type)
            buf = T.alloc_buffer((n,), "float32", scope=scope)
            buf[0] = T.float32(1.0)

    return Before


@I.ir_module
class DeviceFunction:
    @T.prim_func
    def main():
        T.func_attr({"target": tvm.target.Target("cuda")})
        c = T.alloc_buffer((1,), "float32", scope="local")
        c[0] = T.float32(1.5)


ALLOCATION_CASES = [
    pytest.param(_host_alloc(16, "global", device_type=2), id="cuda-global-small"),
    pytest.param(_host_alloc(1, "global", device_type=2), id="cuda-global-one-element"),
    pytest.param(_host_alloc(16, "global"), id="cpu-global-small"),
    pytest.param(_host_alloc(1024, "global"), id="cpu-global-large"),
    pytest.param(_host_alloc(256, "local", device_type=2), id="cuda-local-large"),
    pytest.param(_host_alloc(1024, "local"), id="cpu-local-large"),
    pytest.param(_symbolic_alloc("local", 2), id="cuda-local-symbolic"),
    pytest.param(_symbolic_alloc("global", 2), id="cuda-global-symbolic"),
    pytest.param(
        _host_alloc(16, "global", device_type=2, annotations={"disable_lower_builtin": True}),
        id="cuda-global-disable-lower-builtin",
    ),
    pytest.param(
        _host_alloc(1, "local", device_type=2, annotations={"disable_lower_builtin": True}),
        id="cuda-local-disable-lower-builtin",
    ),
    pytest.param(DeviceFunction, id="device-function"),
]


@pytest.mark.parametrize("before", ALLOCATION_CASES)
def test_lower_tvm_builtin_allocation_unchanged(before):
    fixed = tvm.tirx.transform.LowerTVMBuiltin()(before)
    with fix.unfixed():
        released = tvm.tirx.transform.LowerTVMBuiltin()(before)
    tvm.ir.assert_structural_equal(fixed, released)


def test_s3_moves_exactly_the_annotated_allocation():
    """The annotated allocation of a cuda host function becomes a CPU workspace (device id 0)
    and nothing else changes; today the annotation is ignored."""
    before = _host_alloc(1, "local", device_type=2, annotations={"device_type": 1})
    after = tvm.tirx.transform.LowerTVMBuiltin()(before)
    with fix.unfixed():
        released = tvm.tirx.transform.LowerTVMBuiltin()(before)
    assert "TVMBackendAllocWorkspace(2, 0," in released.script()
    assert after.script() == released.script().replace(
        "TVMBackendAllocWorkspace(2, 0,", "TVMBackendAllocWorkspace(1, 0,"
    ).replace("TVMBackendFreeWorkspace(2, 0,", "TVMBackendFreeWorkspace(1, 0,")


# --------------------------------------------------------------------------------------------
# a CPU host cell: the fix leaves it exactly as it is


@I.ir_module
class CpuHostCell:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        c: T.float32 = T.float32(1.5)
        c = c + B[0]
        for i in range(N):
            C[i] = B[i] + c


def test_cpu_host_cell_computes_the_same():
    with fix.unfixed():
        released = tvm.compile(CpuHostCell, target="llvm")
    fixed = tvm.compile(CpuHostCell, target="llvm")
    # S1 is for non-CPU devices only: on kDLCPU the cell stays a CPU workspace as it was
    assert "TVMBackendAllocWorkspace" in released.mod.inspect_source("ll")
    assert fixed.mod.inspect_source("ll") == released.mod.inspect_source("ll")
    b_np = np.arange(N, dtype="float32") + 2
    expected = b_np + (1.5 + b_np[0])
    for lib in (released, fixed):
        b = tvm.runtime.tensor(b_np)
        c = tvm.runtime.empty((N,), "float32")
        lib["main"](b, c)
        tvm.testing.assert_allclose(c.numpy(), expected)


def test_uninstall_restores_tvm_passes():
    transform = tvm.tirx.transform
    with fix.unfixed():
        originals = (transform.LowerTVMBuiltin, transform.SplitHostDevice)
    undo = fix.install()  # already installed by the fixture: a no-op
    undo()
    assert transform.LowerTVMBuiltin.__wrapped__ is originals[0]
    assert transform.SplitHostDevice.__wrapped__ is originals[1]


if __name__ == "__main__":
    tvm.testing.main()
