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
"""A launch extent that reads a host cell, after SplitHostDevice (this repository only).

A kernel's launch extent is an AttrStmt ``thread_extent`` whose value is the extent and whose
IterVar carries the same extent again, as the domain ``[0, extent)``. When the extent reads a
host cell that kernels get by value, both must read the kernel's scalar parameter: an IterVar
domain left reading the host's cell names a buffer the kernel does not declare, and the module
is ill-formed (``verify_well_formed`` refuses it), though codegen reads only the AttrStmt's
value. Swept: the thread (blockIdx.x, threadIdx.x), the cell's dtype (int32, int64), and two
kernels of one function, one launched over the cell, one over ``cell * 2``.

Through ``tvm.compile`` the domain is stale before SplitHostDevice already on the released
wheel: FlattenBuffer rebuilds the cell (it drops the default layout) and leaves the IterVar's
domain reading the cell it replaced. That is FlattenBuffer's, fix or no fix; so here the pass is
called on a function whose domains read the cell it allocates.
"""

import pytest

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

REASON = "host-level scalar cell read in a launch extent is passed by pointer"


class IllFormedModule(AssertionError):
    """The module SplitHostDevice returns is not well-formed TIR."""


def _kernel_attrs(thread):
    """The attributes SplitHostDevice gives a cuda kernel launched over ``thread``"""
    return {
        "target": T.target("cuda"),
        "calling_conv": 2,
        "tirx.kernel_launch_params": [thread],
        "tirx.noalias": True,
        "tirx.is_global_func": True,
    }


@pytest.mark.xfail(strict=True, raises=IllFormedModule, reason=REASON)
@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("thread", ["blockIdx.x", "threadIdx.x"])
def test_launch_extent_read_from_host_cell_is_well_formed(thread, dtype):
    """A launch extent that reads a host cell reads the kernel's parameter, IterVar included"""
    ty = getattr(T, dtype)

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(64, "float32"), n: T.int32):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), dtype)
            c[0] = ty(n)
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread(thread, c[0])
                A[i] = A[i] + T.float32(1)
            with T.attr(T.target("cuda"), "target", 0):
                j = T.launch_thread(thread, c[0] * 2)
                A[j] = A[j] * T.float32(2)

    @I.ir_module
    class Expected:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(64, "float32"), n: T.int32):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            c = T.alloc_local((1,), dtype, annotations={"device_type": 1})
            c[0] = ty(n)
            T.call_ffi_kernel("main_kernel", A.data, c[0], c[0], launch_params=[thread])
            T.call_ffi_kernel("main_kernel_1", A.data, c[0], c[0] * 2, launch_params=[thread])

        @T.prim_func(s_tir=True)
        def main_kernel(A_data: T.handle("float32"), c: ty):
            T.func_attr(_kernel_attrs(thread))
            A = T.decl_buffer(64, data=A_data)
            i = T.launch_thread(thread, c)
            A[i] = A[i] + T.float32(1)

        @T.prim_func(s_tir=True)
        def main_kernel_1(A_data: T.handle("float32"), c: ty):
            T.func_attr(_kernel_attrs(thread))
            A = T.decl_buffer(64, data=A_data)
            j = T.launch_thread(thread, c * 2)
            A[j] = A[j] * T.float32(2)

    After = tvm.tirx.transform.SplitHostDevice()(Before)
    if not tvm.tirx.analysis.verify_well_formed(After, assert_mode=False):
        raise IllFormedModule(After.script())
    tvm.ir.assert_structural_equal(After, Expected)
