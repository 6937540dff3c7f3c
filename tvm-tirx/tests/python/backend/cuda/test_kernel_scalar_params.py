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
# What each kernel takes and which workspace each cell gets is pinned structurally by
# tirx/transform/test_split_host_device.py and test_lower_tvm_builtin.py. This file launches the
# compiled kernels on a CUDA device, and checks the compile-time errors that need none.

import numpy as np
import pytest
import tvm_tirx
import tvm_tirx.testing
from tvm_tirx.script import tirx as T
from tvm_tirx.testing import env

NO_CUDA = "needs a CUDA device"
# the host stores into device memory: the process dies, there is nothing to catch
HOST_CELL_CRASH = pytest.mark.xfail(
    strict=True, run=False, reason="host-level scalar on the device: the host store crashes"
)
# the CUDA runtime refuses the kernel's parameter type when it first loads the kernel
NARROW = pytest.mark.xfail(
    strict=True, raises=RuntimeError, reason="narrow kernel scalar parameter: no CUDA packing"
)
# the same refusal for a uint64 parameter, which is not narrow: its 64 bits fit the slot
UINT64 = pytest.mark.xfail(
    strict=True, raises=RuntimeError, reason="uint64 kernel scalar: no CUDA packing"
)


def _launch_on_cuda(func, dtype, x, expected):
    """On GPU 0, ``main(B, C, x)`` with ``B = arange(8)`` leaves ``expected`` in ``C``"""

    def build_and_launch():
        executable = tvm_tirx.tirx.compile(func, target=tvm_tirx.target.Target("cuda"))
        dev = tvm_tirx.cuda(0)
        b = tvm_tirx.runtime.tensor(np.arange(8).astype(dtype), device=dev)
        c = tvm_tirx.runtime.empty((8,), dtype, device=dev)
        executable["main"](b, c, x)
        tvm_tirx.testing.assert_allclose(c.numpy(), expected)

    tvm_tirx.testing.run_with_gpu_lock(build_and_launch)


@pytest.mark.gpu
@pytest.mark.skipif(not env.has_cuda(), reason=NO_CUDA)
@HOST_CELL_CRASH
def test_cuda_kernel_adds_cell_the_host_filled():
    """A kernel reading `c: T.float32 = x * 2` sees the value the host stored"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32"), x: T.float32):
        c: T.float32 = x * T.float32(2)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i] + c

    _launch_on_cuda(main, "float32", 1.5, np.arange(8) + 3.0)


@pytest.mark.gpu
@pytest.mark.skipif(not env.has_cuda(), reason=NO_CUDA)
@pytest.mark.parametrize(
    "dtype, x",
    [
        ("float32", 1.5),
        ("float64", 1.5),
        ("int32", -100),
        ("uint32", 200),
        ("int64", -300),
        pytest.param("uint64", 2**40 + 3, marks=UINT64),
        pytest.param("float16", 1.5, marks=NARROW),
        pytest.param("int8", -100, marks=NARROW),
        pytest.param("int16", -300, marks=NARROW),
        pytest.param("uint8", 200, marks=NARROW),
        pytest.param("uint16", 40000, marks=NARROW),
    ],
)
def test_cuda_kernel_adds_scalar_the_host_bound(dtype, x):
    """A kernel reading a host Bind `c = x + 1` of any scalar width sees its value"""
    scalar = getattr(T, dtype)

    @T.function
    def main(B: T.Tensor((8,), dtype), C: T.Tensor((8,), dtype), x: scalar):
        c = x + scalar(1)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i] + c

    expected = np.arange(8).astype(dtype) + (np.array(x, dtype) + np.array(1, dtype))
    _launch_on_cuda(main, dtype, x, expected)


@pytest.mark.gpu
@pytest.mark.skipif(not env.has_cuda(), reason=NO_CUDA)
@NARROW
def test_cuda_kernel_branches_on_bool_the_host_bound():
    """A kernel branching on a host Bind of T.bool sees its value"""

    @T.function
    def main(B: T.Tensor((8,), "int32"), C: T.Tensor((8,), "int32"), x: T.bool):
        negate = T.Not(x)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = T.if_then_else(negate, -B[i], B[i])

    _launch_on_cuda(main, "int32", False, -np.arange(8))


@pytest.mark.gpu
@pytest.mark.skipif(not env.has_cuda(), reason=NO_CUDA)
def test_cuda_kernels_hand_on_a_cell_in_device_memory():
    """A cell one kernel stores and the next kernel loads keeps the value between launches"""

    @T.function
    def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32"), x: T.float32):
        c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
        with T.launch_thread("threadIdx.x", 1) as i:
            c[i] = B[7] + x
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i] + c[0]

    _launch_on_cuda(main, "float32", 0.5, np.arange(8) + 7.5)


@T.function
def _kernel_stores_into_host_cell(A: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        c[0] = A[i]


@T.function
def _kernel_takes_address_of_host_cell(A: T.Tensor((8,), "float32")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope="local")])
    c[0] = T.float32(0.0)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = T.call_extern("load", T.address_of(c[0]), ty=T.float32)
        c[0] = A[i]  # a later use: the first names the error


@T.function
def _kernel_reads_vector_host_cell(A: T.Tensor((8,), "float32x4")):
    c = T.alloc_tensor(ty_args=[T.Tensor((1,), "float32x4", scope="local")])
    c[0] = T.Broadcast(T.float32(0.0), 4)
    with T.launch_thread("threadIdx.x", 8) as i:
        A[i] = c[0]


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="host-level scalar passed by pointer"
)
@pytest.mark.parametrize(
    "func, use",
    [
        (_kernel_stores_into_host_cell, "stores into `c`"),
        (_kernel_takes_address_of_host_cell, "takes the address of `c`"),
        (_kernel_reads_vector_host_cell, "loads an element of `c`.*bind each lane"),
    ],
    ids=["store", "address_of", "vector"],
)
def test_tirx_compile_for_cuda_refuses_kernel_needing_host_cell_address(func, use):
    """tvm_tirx.tirx.compile for cuda fails on a kernel needing more than a host cell's scalar"""
    with pytest.raises(ValueError, match=f"A kernel {use}.*T.let"):
        tvm_tirx.tirx.compile(
            func, target=tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})
        )


if __name__ == "__main__":
    tvm_tirx.testing.main()
