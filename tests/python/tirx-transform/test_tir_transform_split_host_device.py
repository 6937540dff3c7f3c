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


def _cuda_kernel_attrs():
    """The attributes SplitHostDevice gives a cuda kernel launched over threadIdx.x"""
    return {
        "target": tvm.target.Target("cuda"),
        "calling_conv": 2,
        "tirx.kernel_launch_params": ["threadIdx.x"],
        "tirx.noalias": True,
        "tirx.is_global_func": True,
    }


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar passed by pointer")
def test_host_scalar_cell_passed_by_value():
    """A host cell that a kernel only reads is a scalar kernel parameter, loaded at the launch"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            c[0] = T.float32(1.5)
            T.attr(T.target("cuda"), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = c[0]

    @I.ir_module
    class Expected:
        @T.prim_func
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            c[0] = T.float32(1.5)
            T.call_ffi_kernel("main_kernel", A.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.prim_func
        def main_kernel(A_data: T.handle("float32"), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_buffer(8, data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = c

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar passed by pointer")
def test_host_scalar_cell_reassigned_between_launches():
    """Each launch passes the value the host cell holds at that launch"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main(A: T.Buffer(8, "float32"), B: T.Buffer(8, "float32"), x: T.float32):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            c[0] = x
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread("threadIdx.x", 8)
                A[i] = c[0]
            c[0] = c[0] * T.float32(2)
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread("threadIdx.x", 8)
                B[i] = c[0]

    @I.ir_module
    class Expected:
        @T.prim_func
        def main(A: T.Buffer(8, "float32"), B: T.Buffer(8, "float32"), x: T.float32):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            c[0] = x
            T.call_ffi_kernel("main_kernel", A.data, c[0], 8, launch_params=["threadIdx.x"])
            c[0] = c[0] * T.float32(2)
            T.call_ffi_kernel("main_kernel_1", B.data, c[0], 8, launch_params=["threadIdx.x"])

        @T.prim_func
        def main_kernel(A_data: T.handle("float32"), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_buffer(8, data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = c

        @T.prim_func
        def main_kernel_1(B_data: T.handle("float32"), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            B = T.decl_buffer(8, data=B_data)
            i = T.launch_thread("threadIdx.x", 8)
            B[i] = c

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


def test_let_scalar_passed_by_value():
    """A T.let scalar computed on the host from an argument is a scalar kernel parameter"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main(A: T.Buffer(8, "float32"), x: T.float32):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c: T.let[T.float32] = x * T.float32(2)
            T.attr(T.target("cuda"), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = c

    @I.ir_module
    class Expected:
        @T.prim_func
        def main(A: T.Buffer(8, "float32"), x: T.float32):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c: T.let[T.float32] = x * T.float32(2)
            T.call_ffi_kernel("main_kernel", A.data, c, 8, launch_params=["threadIdx.x"])

        @T.prim_func
        def main_kernel(A_data: T.handle("float32"), c: T.float32):
            T.func_attr(_cuda_kernel_attrs())
            A = T.decl_buffer(8, data=A_data)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = c

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


def test_written_cell_and_global_buffer_passed_by_pointer():
    """A host cell that a kernel writes and a one-element global buffer stay pointer parameters"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            acc = T.alloc_buffer((1,), "float32")
            T.attr(T.target("cuda"), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            c[0] = c[0] + A[i]
            A[i] = acc[0]

    @I.ir_module
    class Expected:
        @T.prim_func
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), "float32")
            acc = T.alloc_buffer((1,), "float32")
            T.call_ffi_kernel(
                "main_kernel", A.data, acc.data, c.data, 8, launch_params=["threadIdx.x"]
            )

        @T.prim_func
        def main_kernel(
            A_data: T.handle("float32"),
            acc_data: T.handle("float32"),
            c_data: T.handle("float32", "local"),
        ):
            T.func_attr(_cuda_kernel_attrs())
            acc = T.decl_buffer(1, data=acc_data)
            A = T.decl_buffer(8, data=A_data)
            c = T.decl_buffer(1, data=c_data, scope="local")
            i = T.launch_thread("threadIdx.x", 8)
            c[0] = c[0] + A[i]
            A[i] = acc[0]

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


if __name__ == "__main__":
    tvm.testing.main()
