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
    strict=True, raises=pytest.fail.Exception, reason="VerifyMemory misses aliases and webgpu"
)
GPU_TARGETS = ["cuda", "rocm", "vulkan", "metal", "opencl", "webgpu"]


def test_host_access_to_parameter():
    """Host code of a GPU function may not access a parameter buffer; a CPU function's may"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        B[0] = A[0]

    with pytest.raises(RuntimeError, match="Variable `B` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))
    assert tvm.tirx.analysis.verify_memory(func.with_attr("target", tvm.target.Target("llvm")))


@ALIAS_BUG
@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_through_decl_buffer_aliases(target):
    """Host code may not access a parameter through a chain of decl_buffer aliases"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        A_1 = T.decl_buffer((16,), data=A.data)
        tiles = T.decl_buffer((4, 4), data=A_1.data)
        T.evaluate(tiles[1, 2])

    with pytest.raises(RuntimeError, match="Variable `tiles` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_through_match_buffer(target):
    """Host code may not access a parameter through a match_buffer of its alias"""

    @T.prim_func(s_tir=True)
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        A_1 = T.decl_buffer((16,), data=A.data)
        with T.sblock("host"):
            tile = T.match_buffer(A_1[4:8], (4,), offset_factor=1)
            tile[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `tile` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize("position", [0, 1, 2])
def test_host_access_through_pointer_parameter(position):
    """Every pointer parameter counts, the first, a middle and the last alike"""

    @T.prim_func
    def func(a: T.handle("float32"), b: T.handle("float32"), c: T.handle("float32")):
        T.func_attr({"target": T.target("cuda")})
        X = T.decl_buffer((16,), data=[a, b, c][position])
        X[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `X` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


def test_host_access_through_untraced_pointer():
    """Known limit: views over tvm_access_ptr, reinterpret or a byte offset are not traced"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        ptr = T.tvm_access_ptr(T.type_annotation("float32"), A.data, 4, 4, 1)
        view = T.decl_buffer((4,), data=ptr)
        raw = T.decl_buffer((16,), "int32", data=T.reinterpret("handle", A.data))
        tail = T.decl_buffer((4,), data=T.handle_add_byte_offset(A.data, 48))
        view[0] = tail[0] + T.Cast("float32", raw[0])

    assert tvm.tirx.analysis.verify_memory(func)


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_host_access_to_allocation(target):
    """Host code may access a host allocation and its aliases; kernels may access parameters"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        acc = T.alloc_buffer((2,), "float32", scope="local")
        acc_view = T.decl_buffer((2,), data=acc.data, scope="local")
        acc[0] = T.float32(0.5)
        acc_view[1] = acc_view[0] * T.float32(2.0)
        with T.launch_thread("threadIdx.x", 16) as tx:
            A[tx] = A[tx] * T.float32(2.0)

    assert tvm.tirx.analysis.verify_memory(func)


@ALIAS_BUG
def test_compile_rejects_unbound_kernel():
    """tvm.compile for cuda rejects a loop that no thread binds, here reading a view"""

    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((4,), "float32")):
        row = T.decl_buffer((4,), data=T.address_of(A[4]))
        for i in range(4):
            B[i] = row[i]

    with pytest.raises(RuntimeError, match="Variable `row` is directly accessed by host memory"):
        tvm.compile(main, target="cuda")


def test_compile_accepts_address_of_view():
    """tvm.compile for cuda accepts a host-side view at a parameter's address read by a kernel"""

    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((4,), "float32")):
        tail = T.decl_buffer((4,), data=T.address_of(A[4]))
        for i in T.thread_binding(4, thread="threadIdx.x"):
            B[i] = tail[i]

    assert "__global__" in tvm.compile(main, target="cuda").mod.imports[0].inspect_source()


if __name__ == "__main__":
    tvm.testing.main()
