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
import tvm_tirx
import tvm_tirx.testing
from tvm_tirx.script import tirx as T
from tvm_tirx.testing import env

_runs = [
    pytest.param(False, id="codegen"),
    pytest.param(
        True,
        id="run",
        marks=[pytest.mark.gpu, pytest.mark.skipif(not env.has_cuda(), reason="need cuda")],
    ),
]


def _compile(func):
    """Compile ``func`` as ``main`` for cuda; an explicit arch needs no GPU"""
    target = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})
    return tvm_tirx.tirx.compile(tvm_tirx.ir.IRModule({"main": func}), target=target)


def _kernel_signature(lib):
    """The declaration line of the generated cuda kernel"""
    source = lib.mod.imports[0].inspect_source()
    return next(line for line in source.splitlines() if "__global__" in line)


def _run(lib, dtype, args, expected):
    """On a GPU, ``main(B, C, *args)`` with ``B = arange(8)`` gives ``C == expected``"""

    def run():
        dev = tvm_tirx.cuda(0)
        b = tvm_tirx.runtime.tensor(np.arange(8).astype(dtype), device=dev)
        c = tvm_tirx.runtime.empty((8,), dtype, device=dev)
        lib["main"](b, c, *args)
        tvm_tirx.testing.assert_allclose(c.numpy(), expected)

    tvm_tirx.testing.run_with_gpu_lock(run)


def _check_host_scalar(func, run):
    """``C = B + c`` with ``c`` set on the host: the kernel takes no pointer but ``B_ptr`` and
    ``C_ptr``, and the host allocates no device memory (every workspace is on kDLCPU = 1)"""
    lib = _compile(func)
    assert re.findall(r"\* __restrict__ (\w+)", _kernel_signature(lib)) == ["B_ptr", "C_ptr"]
    ll = lib.mod.inspect_source("ll")
    assert set(re.findall(r"call ptr %\S+\(i32 (\d+), ", ll)) <= {"1"}
    if run:
        _run(lib, "float32", (), np.arange(8, dtype="float32"))


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="host-level scalar on the device")
@pytest.mark.parametrize("run", _runs)
def test_cuda_host_scalar_cell(run):
    """An annotated host-level scalar reaches the kernel by value, not in device memory"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        T.func_attr({"tirx.noalias": True})
        c: T.float32 = T.float32(0.0)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i] + c

    _check_host_scalar(main, run)


@pytest.mark.parametrize("run", _runs)
def test_cuda_plain_host_scalar(run):
    """A plain host-level assignment (a T.let binding) reaches the kernel by value"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        T.func_attr({"tirx.noalias": True})
        c = T.float32(0.0)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i] + c

    _check_host_scalar(main, run)


def _kernel_pointer_params(lib):
    """{kernel name: its pointer parameters} of the generated cuda source"""
    source = lib.mod.imports[0].inspect_source()
    kernels = re.findall(r"__global__ void __launch_bounds__\(\d+\) (\w+)\(([^)]*)\)", source)
    return {name: re.findall(r"\* __restrict__ (\w+)", params) for name, params in kernels}


def test_cuda_local_cell_of_kernels_stays_on_device():
    """A local cell that only kernels use, one writing it, is device memory passed by pointer"""

    @T.function
    def main(A: T.Tensor((8,), "float32")):
        T.func_attr({"tirx.noalias": True})
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        with T.launch_thread("threadIdx.x", 8) as i:
            c[0] = A[i]
        with T.launch_thread("threadIdx.x", 8) as i:
            A[i] = c[0]

    lib = _compile(main)
    params = _kernel_pointer_params(lib)
    assert params == {"main_kernel": ["A_ptr", "c_ptr"], "main_kernel_1": ["A_ptr", "c_ptr"]}
    ll = lib.mod.inspect_source("ll")
    assert set(re.findall(r"call ptr %\S+\(i32 (\d+), ", ll)) == {"2"}


@T.function
def _kernel_stores_into_host_cell(A: T.Tensor((8,), "float32")):
    T.func_attr({"tirx.noalias": True})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        c[0] = A[i]


@T.function
def _kernel_takes_address_of_host_cell(A: T.Tensor((8,), "float32")):
    T.func_attr({"tirx.noalias": True})
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = T.call_extern("load", T.address_of(c[0]), ty=T.float32)


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="host-level scalar passed by pointer"
)
@pytest.mark.parametrize(
    "func, use",
    [
        (_kernel_stores_into_host_cell, "stores into `c`"),
        (_kernel_takes_address_of_host_cell, "takes the address of `c`"),
    ],
    ids=["store", "address"],
)
def test_cuda_kernel_needing_host_cell_is_rejected(func, use):
    """Compiling a kernel that writes or addresses a host-level cell is an error"""
    with pytest.raises(ValueError, match=f"A kernel {use}.*T.let"):
        _compile(func)


def _check_kernel_scalar_param(func, dtype, x, expected, param_ctype, run):
    """The kernel's scalar parameter after ``C_ptr`` has C type ``param_ctype``; on a GPU,
    ``main(B, C, x)`` with ``B = arange(8)`` gives ``expected``"""
    lib = _compile(func)
    assert f"__restrict__ C_ptr, {param_ctype} " in _kernel_signature(lib)
    if run:
        _run(lib, dtype, (x,), expected)


def _let_scalar_func(dtype):
    """``C = B + c`` with ``c: T.let[dtype] = x + 1`` computed on the host"""
    scalar = getattr(T, dtype)

    @T.function
    def main(B: T.Tensor((8,), dtype), C: T.Tensor((8,), dtype), x: scalar):
        c: T.let[scalar] = x + scalar(1)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i] + c

    return main


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
@pytest.mark.parametrize("run", _runs)
def test_cuda_narrow_let_scalar(dtype, x, param_ctype, run):
    """A scalar narrower than 32 bits reaches the kernel as a 32-bit parameter"""
    expected = np.arange(8).astype(dtype) + (np.array(x, dtype) + np.array(1, dtype))
    _check_kernel_scalar_param(_let_scalar_func(dtype), dtype, x, expected, param_ctype, run)


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
@pytest.mark.parametrize("run", _runs)
def test_cuda_wide_let_scalar(dtype, x, param_ctype, run):
    """A 32- or 64-bit scalar reaches the kernel as a parameter of its own type"""
    expected = np.arange(8).astype(dtype) + (np.array(x, dtype) + np.array(1, dtype))
    _check_kernel_scalar_param(_let_scalar_func(dtype), dtype, x, expected, param_ctype, run)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="narrow kernel scalar parameter")
@pytest.mark.parametrize("run", _runs)
def test_cuda_bool_let_scalar(run):
    """A bool scalar reaches the kernel as an int32 parameter"""

    @T.function
    def main(B: T.Tensor((8,), "int32"), C: T.Tensor((8,), "int32"), x: T.bool):
        negate: T.let[T.bool] = T.Not(x)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = T.if_then_else(negate, -B[i], B[i])

    _check_kernel_scalar_param(main, "int32", False, -np.arange(8), "int", run)


if __name__ == "__main__":
    tvm_tirx.testing.main()
