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

import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T

ALIAS_BUG = pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,  # pytest.raises: DID NOT RAISE
    reason="VerifyMemory stops at decl_buffer/match_buffer aliases of the parameters",
)
GPU_TARGETS = ["cuda", "rocm", "vulkan", "metal", "opencl"]


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_to_parameter(target):
    """Host code of a GPU function may not access a parameter buffer"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        B[0] = A[0]
        with T.launch_thread("threadIdx.x", 16) as tx:
            B[tx] = A[tx]

    with pytest.raises(RuntimeError, match="Variable `B` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_through_decl_buffer_aliases(target):
    """Host code may not access a parameter through a chain of decl_buffer aliases"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        B_1 = T.decl_buffer((16,), data=B.data)
        tiles = T.decl_buffer((4, 4), data=B_1.data)
        x: T.let[T.float32] = tiles[1, 2]
        with T.launch_thread("threadIdx.x", 16) as tx:
            B_1[tx] = A[tx] + x

    with pytest.raises(RuntimeError, match="Variable `tiles` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_through_match_buffer(target):
    """Host code may not access a parameter through a match_buffer of its alias"""

    @T.prim_func(s_tir=True)
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        B_1 = T.decl_buffer((16,), data=B.data)
        with T.sblock("host"):
            tile = T.match_buffer(B_1[4:8], (4,), offset_factor=1)
            tile[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `tile` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_to_allocation(target):
    """Host code may access a host allocation and its aliases; kernels may access parameters"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        B_1 = T.decl_buffer((16,), data=B.data)
        acc = T.alloc_buffer((2,), "float32", scope="local")
        acc_view = T.decl_buffer((2,), data=acc.data, scope="local")
        acc[0] = T.float32(0.5)
        acc_view[1] = acc[0] * T.float32(2.0)
        x: T.let[T.float32] = acc_view[1]
        with T.launch_thread("threadIdx.x", 16) as tx:
            B_1[tx] = A[tx] * x

    assert tvm.tirx.analysis.verify_memory(func)


@pytest.mark.parametrize("target", ["llvm", "c"])
def test_host_access_on_cpu(target):
    """A CPU function's host code may access its parameters through aliases"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        tiles = T.decl_buffer((4, 4), data=B.data)
        tiles[1, 2] = A[0]

    assert tvm.tirx.analysis.verify_memory(func)


@ALIAS_BUG
def test_compile_rejects_unbound_kernel():
    """tvm.compile for cuda rejects a loop that no thread binds, here reading a view"""

    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((4,), "float32")):
        tiles = T.decl_buffer((4, 4), data=A.data)
        row = T.decl_buffer((4,), data=tiles.data)
        for i in range(4):
            B[i] = row[i]

    with pytest.raises(RuntimeError, match="Variable `row` is directly accessed by host memory"):
        tvm.compile(main, target="cuda")


def test_compile_accepts_host_allocation():
    """tvm.compile for cuda accepts host code using a host allocation and a bound kernel"""

    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        acc = T.alloc_buffer((2,), "float32", scope="local")
        acc_view = T.decl_buffer((2,), data=acc.data, scope="local")
        acc[0] = T.float32(0.5)
        acc_view[1] = acc[0] * T.float32(2.0)
        x: T.let[T.float32] = acc_view[1]
        for i in T.thread_binding(16, thread="threadIdx.x"):
            B[i] = A[i] * x

    lib = tvm.compile(main, target="cuda")
    assert "__global__" in lib.mod.imports[0].inspect_source()


if __name__ == "__main__":
    tvm.testing.main()
