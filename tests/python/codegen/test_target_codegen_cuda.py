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
import numpy as np
import pytest

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T
from tvm.testing import env

_host_scalar_runs = [
    pytest.param(False, id="codegen"),
    pytest.param(
        True,
        id="run",
        marks=[pytest.mark.gpu, pytest.mark.skipif(not env.has_cuda(), reason="need cuda")],
    ),
]


def _check_host_scalar_kernel(mod, run):
    """``C = B + c`` with ``c = 2 * x`` set on the host: no device workspace, and the kernel
    takes ``c`` by value (the parameter after ``C_ptr`` is a ``float``, not a ``float*``)"""
    lib = tvm.compile(mod, target="cuda")
    assert "__restrict__ C_ptr, float " in lib.mod.imports[0].inspect_source()
    assert "TVMBackendAllocWorkspace" not in lib.mod.inspect_source("ll")
    if run:
        dev = tvm.cuda(0)
        b = tvm.runtime.tensor(np.arange(8, dtype="float32"), device=dev)
        c = tvm.runtime.empty((8,), "float32", device=dev)
        lib["main"](b, c, 1.5)
        tvm.testing.assert_allclose(c.numpy(), b.numpy() + 3.0)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="host-level scalar on the device")
@pytest.mark.parametrize("run", _host_scalar_runs)
def test_cuda_host_scalar_cell(run):
    """A host-level scalar that a kernel reads is passed to the kernel by value"""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(B: T.Buffer(8, "float32"), C: T.Buffer(8, "float32"), x: T.float32):
            c: T.float32 = x * T.float32(2)
            for i in T.thread_binding(8, thread="threadIdx.x"):
                C[i] = B[i] + c

    _check_host_scalar_kernel(Module, run)


@pytest.mark.parametrize("run", _host_scalar_runs)
def test_cuda_let_scalar(run):
    """A T.let scalar computed on the host from an argument is passed to the kernel by value"""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(B: T.Buffer(8, "float32"), C: T.Buffer(8, "float32"), x: T.float32):
            c: T.let[T.float32] = x * T.float32(2)
            for i in T.thread_binding(8, thread="threadIdx.x"):
                C[i] = B[i] + c

    _check_host_scalar_kernel(Module, run)


if __name__ == "__main__":
    tvm.testing.main()
