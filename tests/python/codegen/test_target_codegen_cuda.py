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
import re

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
    """``C = B + c`` with ``c = 2 * x`` set on the host: the host allocates no device memory
    (every workspace is on kDLCPU = 1), and the kernel takes ``c`` by value (the parameter
    after ``C_ptr`` is a ``float``, not a ``float*``)"""
    lib = tvm.compile(mod, target="cuda")
    assert "__restrict__ C_ptr, float " in lib.mod.imports[0].inspect_source()
    assert set(re.findall(r"call ptr %\S+\(i32 (\d+), ", lib.mod.inspect_source("ll"))) <= {"1"}
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


def _check_kernel_scalar_param(mod, dtype, x, expected, param_ctype, run):
    """Compile ``C = B + c`` for cuda: the kernel's scalar parameter after ``C_ptr`` has C type
    ``param_ctype``; on a GPU, ``main(B, C, x)`` with ``B = arange(8)`` gives ``expected``"""
    lib = tvm.compile(mod, target="cuda")
    assert f"__restrict__ C_ptr, {param_ctype} " in lib.mod.imports[0].inspect_source()
    if run:
        dev = tvm.cuda(0)
        b = tvm.runtime.tensor(np.arange(8).astype(dtype), device=dev)
        c = tvm.runtime.empty((8,), dtype, device=dev)
        lib["main"](b, c, x)
        tvm.testing.assert_allclose(c.numpy(), expected)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="narrow kernel scalar parameter")
@pytest.mark.parametrize(
    "dtype, x, param_ctype",
    [
        ("float16", 1.5, "float"),
        ("int8", -100, "int"),
        ("int16", -300, "int"),
        ("uint8", 200, "uint"),
        ("uint16", 40000, "uint"),
    ],
)
@pytest.mark.parametrize("run", _host_scalar_runs)
def test_cuda_narrow_let_scalar(dtype, x, param_ctype, run):
    """A scalar narrower than 32 bits reaches the kernel as a 32-bit parameter"""
    scalar = getattr(T, dtype)

    @I.ir_module
    class Module:
        @T.prim_func
        def main(B: T.Buffer(8, dtype), C: T.Buffer(8, dtype), x: scalar):
            c: T.let[scalar] = x + scalar(1)
            for i in T.thread_binding(8, thread="threadIdx.x"):
                C[i] = B[i] + c

    expected = np.arange(8).astype(dtype) + (np.array(x, dtype) + np.array(1, dtype))
    _check_kernel_scalar_param(Module, dtype, x, expected, param_ctype, run)


@pytest.mark.parametrize(
    "dtype, x, param_ctype",
    [
        ("float32", 1.5, "float"),
        ("int32", -100, "int"),
        ("uint32", 200, "uint"),
        ("int64", -300, "int64_t"),
        ("float64", 1.5, "double"),
    ],
)
@pytest.mark.parametrize("run", _host_scalar_runs)
def test_cuda_wide_let_scalar(dtype, x, param_ctype, run):
    """A 32- or 64-bit scalar reaches the kernel as a parameter of its own type"""
    scalar = getattr(T, dtype)

    @I.ir_module
    class Module:
        @T.prim_func
        def main(B: T.Buffer(8, dtype), C: T.Buffer(8, dtype), x: scalar):
            c: T.let[scalar] = x + scalar(1)
            for i in T.thread_binding(8, thread="threadIdx.x"):
                C[i] = B[i] + c

    expected = np.arange(8).astype(dtype) + (np.array(x, dtype) + np.array(1, dtype))
    _check_kernel_scalar_param(Module, dtype, x, expected, param_ctype, run)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="narrow kernel scalar parameter")
@pytest.mark.parametrize("run", _host_scalar_runs)
def test_cuda_bool_let_scalar(run):
    """A bool scalar reaches the kernel as an int32 parameter"""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(B: T.Buffer(8, "int32"), C: T.Buffer(8, "int32"), x: T.bool):
            negate: T.let[T.bool] = T.Not(x)
            for i in T.thread_binding(8, thread="threadIdx.x"):
                C[i] = T.if_then_else(negate, -B[i], B[i])

    _check_kernel_scalar_param(Module, "int32", False, -np.arange(8), "int", run)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="host-level scalar on the device")
@pytest.mark.xfail(strict=True, raises=AssertionError, reason="narrow kernel scalar parameter")
@pytest.mark.parametrize("run", _host_scalar_runs)
def test_cuda_float16_host_scalar_cell(run):
    """A float16 host-level scalar reaches the kernel by value, as a float32 parameter"""

    @I.ir_module
    class Module:
        @T.prim_func
        def main(B: T.Buffer(8, "float16"), C: T.Buffer(8, "float16"), x: T.float16):
            c: T.float16 = x + T.float16(1)
            for i in T.thread_binding(8, thread="threadIdx.x"):
                C[i] = B[i] + c

    expected = np.arange(8).astype("float16") + np.float16(2.5)
    _check_kernel_scalar_param(Module, "float16", 1.5, expected, "float", run)


if __name__ == "__main__":
    tvm.testing.main()
