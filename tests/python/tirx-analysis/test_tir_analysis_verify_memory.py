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
    raises=(AssertionError, pytest.fail.Exception),
    reason="VerifyMemory never fires inside tvm.compile: aliases, pointer arithmetic, webgpu",
)
GLOBAL_BUG = pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="VerifyMemory skips the global buffers that the host code allocates",
)
HOST_VALUE_BUG = pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="VerifyMemory misses the host's reads for a view's address and a launch's sizes",
)


@pytest.mark.parametrize("target", ["cuda", pytest.param("webgpu", marks=ALIAS_BUG), "llvm"])
def test_host_access_to_parameter(target):
    """Host code may access a parameter only in a CPU function: webgpu is a GPU like cuda"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        B[0] = A[0]

    assert tvm.tirx.analysis.verify_memory(func) == (target == "llvm")


@ALIAS_BUG
@pytest.mark.parametrize("position", [0, 1, 2])
@pytest.mark.parametrize(
    "pointer",
    [
        lambda A: T.address_of(A[4]),
        lambda A: T.reinterpret("handle", A.data),
        lambda A: T.handle_add_byte_offset(A.data, 16),
        lambda A: T.ptr_byte_offset(A.data, 16, "float32"),
        lambda A: T.tvm_access_ptr(T.type_annotation("float32"), A.data, 4, 4, 1),
    ],
    ids=["address_of", "reinterpret", "byte_offset", "ptr_byte_offset", "access_ptr"],
)
def test_host_access_through_aliases(pointer, position):
    """Host code may not access any pointer parameter through views, pointers and regions"""

    @T.prim_func(s_tir=True)
    def func(a: T.handle("float32"), b: T.handle("float32"), c: T.handle("float32")):
        T.func_attr({"target": T.target("cuda")})
        A = T.decl_buffer((16,), data=[a, b, c][position])
        p = pointer(A)
        view = T.decl_buffer((8,), data=p)
        with T.sblock("host"):
            tile = T.match_buffer(view[0:4], (4,), offset_factor=1)
            T.evaluate(tile[0])

    assert not tvm.tirx.analysis.verify_memory(func)


@pytest.mark.parametrize("read", [False, pytest.param(True, marks=HOST_VALUE_BUG)])
@pytest.mark.parametrize("place", ["address_of", "blockIdx.x", "threadIdx.x", "shared.dyn"])
def test_host_computes_view_address_and_launch(place, read):
    """The host computes a view's address and a launch's sizes: it may read a cell, no parameter"""

    def value(at, B_1, cell):
        return (B_1 if read else cell)[0] if at == place else 4

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((1,), "int32")):
        T.func_attr({"target": T.target("cuda")})
        A_1 = T.decl_buffer((16,), data=A.data)
        B_1 = T.decl_buffer((1,), "int32", data=B.data)
        cell = T.alloc_buffer((1,), "int32", scope="local")
        cell[0] = 4
        tail = T.decl_buffer((4,), data=T.address_of(A_1[value("address_of", B_1, cell)]))
        with T.launch_thread("blockIdx.x", value("blockIdx.x", B_1, cell)) as bx:
            with T.launch_thread("threadIdx.x", value("threadIdx.x", B_1, cell)) as tx:
                shared = T.alloc_buffer((value("shared.dyn", B_1, cell),), scope="shared.dyn")
                shared[tx] = tail[tx]
                A_1[bx * 4 + tx] = shared[tx]

    assert tvm.tirx.analysis.verify_memory(func) != read


@pytest.mark.parametrize(
    "scope, annotations, valid",
    [
        pytest.param("global", None, False, marks=GLOBAL_BUG),
        pytest.param(
            "global", {"device_type": 2, "disable_lower_builtin": 0}, False, marks=GLOBAL_BUG
        ),
        ("global", {"device_type": 1}, True),
        ("global", {"disable_lower_builtin": 1}, True),
        ("local", None, True),
    ],
    ids=["global", "global-annotated", "global-cpu", "global-not-lowered", "local"],
)
def test_host_access_to_allocation(scope, annotations, valid):
    """A buffer the host allocates is device memory unless local or annotated for the host"""

    @T.prim_func
    def func(x: T.float32):
        T.func_attr({"target": T.target("cuda")})
        acc = T.alloc_buffer((2,), "float32", scope=scope, annotations=annotations)
        acc_view = T.decl_buffer((2,), data=acc.data, scope=scope)
        acc_view[0] = x

    assert tvm.tirx.analysis.verify_memory(func) == valid


@pytest.mark.parametrize("kind", ["device", pytest.param("host", marks=ALIAS_BUG), "packed"])
def test_functions_with_host_code_checked(kind):
    """A private function with a hostless target is device code, a packed one is not checked"""
    host = None if kind == "device" else "llvm"
    attrs = {"target": tvm.target.Target("cuda", host=host), "calling_conv": int(kind == "packed")}

    @T.prim_func(private=True)
    def func(a: T.handle("float32")):
        T.func_attr(attrs)
        A = T.decl_buffer((16,), data=a)
        A[0] = T.float32(1.0)

    assert tvm.tirx.analysis.verify_memory(func) == (kind != "host")


@pytest.mark.parametrize(
    "thread", [pytest.param(None, marks=ALIAS_BUG), "threadIdx.x", "blockIdx.x", "threadIdx.y"]
)
def test_compile_rejects_unbound_kernel(thread):
    """tvm.compile for cuda rejects a loop over a parameter's view that no thread binds"""

    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((4,), "float32")):
        row = T.decl_buffer((4,), data=T.address_of(A[4]))
        for i in T.thread_binding(4, thread) if thread is not None else T.serial(4):
            B[i] = row[i]

    if thread:
        tvm.compile(main, target="cuda")
    else:
        with pytest.raises(RuntimeError, match="Variable `row` is directly accessed by host"):
            tvm.compile(main, target="cuda")


if __name__ == "__main__":
    tvm.testing.main()
