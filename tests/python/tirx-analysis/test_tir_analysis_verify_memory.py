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
from tvm.script import ir as I
from tvm.script import tirx as T

ALIAS_BUG = pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,
    reason="VerifyMemory never fires inside tvm.compile: aliases, pointer arithmetic, webgpu",
)
GPU_TARGETS = ["cuda", "rocm", "vulkan", "metal", "opencl", "webgpu"]


@pytest.mark.parametrize(
    "target", ["cuda", "rocm", "vulkan", "metal", "opencl", pytest.param("webgpu", marks=ALIAS_BUG)]
)
def test_host_access_to_parameter(target):
    """Host code of a GPU function may not access a parameter buffer"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target(target)})
        B[0] = A[0]

    with pytest.raises(RuntimeError, match="Variable `B` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


def test_cpu_function_not_checked():
    """Host code of a CPU function may access its parameter buffers"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("llvm")})
        B_1 = T.decl_buffer((16,), data=B.data)
        B_1[0] = A[0]

    assert tvm.tirx.analysis.verify_memory(func)


@ALIAS_BUG
def test_host_access_through_decl_buffer_aliases():
    """Host code may not access a parameter through a chain of decl_buffer aliases"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        A_1 = T.decl_buffer((16,), data=A.data)
        tiles = T.decl_buffer((4, 4), data=A_1.data)
        T.evaluate(tiles[1, 2])

    with pytest.raises(RuntimeError, match="Variable `tiles` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


@ALIAS_BUG
def test_host_access_through_match_buffer():
    """Host code may not access a parameter through a match_buffer of its alias"""

    @T.prim_func(s_tir=True)
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda")})
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


@ALIAS_BUG
def test_host_access_through_bound_pointer():
    """Host code may not access a parameter through a view over a pointer bound to its data"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        p: T.let[T.handle("float32")] = A.data
        X = T.decl_buffer((16,), data=p)
        X[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `X` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


@ALIAS_BUG
@pytest.mark.parametrize(
    "pointer",
    [
        lambda A: T.reinterpret("handle", A.data),
        lambda A: T.handle_add_byte_offset(A.data, 48),
        lambda A: T.ptr_byte_offset(A.data, 48, "float32"),
        lambda A: T.tvm_access_ptr(T.type_annotation("float32"), A.data, 12, 4, 1),
    ],
    ids=["reinterpret", "handle_add_byte_offset", "ptr_byte_offset", "tvm_access_ptr"],
)
def test_host_access_through_pointer_arithmetic(pointer):
    """Host code may not access a parameter through a pointer computed from its data"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        A_1 = T.decl_buffer((16,), data=A.data)
        view = T.decl_buffer((4,), data=pointer(A_1))
        view[0] = T.float32(1.0)

    with pytest.raises(RuntimeError, match="Variable `view` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


@ALIAS_BUG
def test_host_access_in_address_of_index():
    """Host code may not read a parameter in the index of an address_of"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((4,), "int32")):
        T.func_attr({"target": T.target("cuda")})
        A_1 = T.decl_buffer((16,), data=A.data)
        B_1 = T.decl_buffer((4,), "int32", data=B.data)
        row = T.decl_buffer((4,), data=T.address_of(A_1[B_1[1]]))
        with T.launch_thread("threadIdx.x", 4) as tx:
            A_1[tx] = row[tx]

    with pytest.raises(RuntimeError, match="Variable `B_1` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


def test_address_of_parameter_is_no_access():
    """Host code may take a parameter's address for a view that only a kernel reads"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((4,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        A_1 = T.decl_buffer((16,), data=A.data)
        B_1 = T.decl_buffer((4,), data=B.data)
        tail = T.decl_buffer((4,), data=T.address_of(A_1[12]))
        with T.launch_thread("threadIdx.x", 4) as tx:
            B_1[tx] = tail[tx]

    assert tvm.tirx.analysis.verify_memory(func)


@pytest.mark.parametrize(
    "scope, annotations",
    [("local", None), ("global", {"device_type": 1}), ("global", {"disable_lower_builtin": 1})],
    ids=["local", "global-cpu", "global-not-lowered"],
)
def test_host_access_to_host_allocation(scope, annotations):
    """Host code may access a buffer it allocates in host memory, directly or through a view"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        acc = T.alloc_buffer((2,), "float32", scope=scope, annotations=annotations)
        acc_view = T.decl_buffer((2,), data=acc.data, scope=scope)
        acc[0] = T.float32(0.5)
        acc_view[1] = acc_view[0] * T.float32(2.0)

    assert tvm.tirx.analysis.verify_memory(func)


@pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,
    reason="VerifyMemory skips the global buffers that the host code allocates",
)
@pytest.mark.parametrize("annotations", [None, {"pragma_note": 1}], ids=["plain", "annotated"])
def test_host_access_to_global_allocation(annotations):
    """Host code may not access a global buffer it allocates: that buffer is device memory"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32"), x: T.float32):
        T.func_attr({"target": T.target("cuda")})
        scale = T.alloc_buffer((4,), "float32", annotations=annotations)
        scale[0] = x
        with T.launch_thread("threadIdx.x", 16) as tx:
            A[tx] = A[tx] * scale[0]

    with pytest.raises(RuntimeError, match="Variable `scale` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


def test_global_allocation_of_kernels_only():
    """A global buffer that the host code allocates and only kernels access is no host access"""

    @T.prim_func
    def func(A: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda")})
        tmp = T.alloc_buffer((16,), "float32")
        with T.launch_thread("threadIdx.x", 16) as tx:
            tmp[tx] = A[tx] * T.float32(2.0)
        with T.launch_thread("threadIdx.x", 16) as tx:
            A[tx] = tmp[tx]

    assert tvm.tirx.analysis.verify_memory(func)


def test_device_helper_not_checked():
    """A private function whose target has no host is device code: it is not checked"""

    @I.ir_module
    class Module:
        @T.prim_func(private=True)
        def load(a: T.handle("float32"), i: T.int32) -> T.float32:
            T.func_attr({"target": T.target("cuda")})
            A = T.decl_buffer((8,), data=a)
            return A[i] * T.float32(2.0)

        @T.prim_func
        def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            A_1 = T.decl_buffer((8,), data=A.data)
            B_1 = T.decl_buffer((8,), data=B.data)
            with T.launch_thread("threadIdx.x", 8) as tx:
                B_1[tx] = Module.load(A_1.data, tx)

    assert tvm.tirx.transform.VerifyMemory()(Module).same_as(Module)


def test_private_host_function_checked():
    """A private function whose target has a host is host code: it is checked"""

    @T.prim_func(private=True)
    def func(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        B[0] = A[0]

    with pytest.raises(RuntimeError, match="Variable `B` is directly accessed by host memory"):
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


def test_packed_function_not_checked():
    """A packed function reads its arguments' DLTensor fields on the host: it is not checked"""

    @T.prim_func
    def func(args: T.handle, num_args: T.int32) -> T.int32:
        T.func_attr({"target": T.target("cuda", host="llvm"), "calling_conv": 1})
        A_handle: T.let[T.handle] = T.tvm_struct_get(args, 0, 15, "handle")
        A_shape = T.decl_buffer((1,), "int64", data=T.tvm_struct_get(A_handle, 0, 2, "handle"))
        assert A_shape[0] == T.int64(16), "A has 16 elements"
        return 0

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


def test_compile_accepts_bound_kernel():
    """tvm.compile for cuda accepts that loop once a thread binds it"""

    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((4,), "float32")):
        row = T.decl_buffer((4,), data=T.address_of(A[4]))
        for i in T.thread_binding(4, "threadIdx.x"):
            B[i] = row[i]

    tvm.compile(main, target="cuda")


if __name__ == "__main__":
    tvm.testing.main()
