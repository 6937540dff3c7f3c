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
"""SplitHostDevice's by-value split swept over what the upstream by-value test pins once: how
many cells one kernel reads (two, the first read twice), the rank of a one-element cell ((1,)
and (1, 1): a direct call of the pass sees the cell before FlattenBuffer), and the host control
flow the kernels are launched in (straight code, a ``while`` loop). Each cell is one scalar
parameter of the kernel, passed by value at the launch, and each is host memory.
"""

import pytest

import tvm
from tvm.script import tirx as T

HOST_CELL = "host-level scalar passed by pointer"


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_CELL)
@pytest.mark.parametrize("loop", ["straight", "while"])
@pytest.mark.parametrize("shape", [(1,), (1, 1)], ids=["rank1", "rank2"])
def test_every_cell_a_kernel_reads_is_one_parameter_passed_by_value(shape, loop):
    """Two host cells one kernel reads, the first twice, are two scalars passed at the launch"""
    zero = (0,) * len(shape)

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), x: T.float32):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        c = T.alloc_local((1,), "float32")
        d = T.alloc_local(shape, "float32")
        c[0] = x
        d[zero] = x * T.float32(2)
        if loop == "while":
            while c[0] < T.float32(100):
                with T.attr(T.target("cuda"), "target", 0):
                    i = T.launch_thread("threadIdx.x", 8)
                    A[i] = A[i] * c[0] + d[zero] * c[0]
                c[0] = c[0] * T.float32(2)
        else:
            with T.attr(T.target("cuda"), "target", 0):
                i = T.launch_thread("threadIdx.x", 8)
                A[i] = A[i] * c[0] + d[zero] * c[0]

    After = tvm.tirx.transform.SplitHostDevice()(tvm.IRModule({"main": main}))

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer(8, "float32"), x: T.float32):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
        d = T.alloc_local(shape, "float32", annotations={"device_type": 1})
        c[0] = x
        d[zero] = x * T.float32(2)
        if loop == "while":
            while c[0] < T.float32(100):
                T.call_ffi_kernel(
                    "main_kernel", A.data, c[0], d[zero], 8, launch_params=["threadIdx.x"]
                )
                c[0] = c[0] * T.float32(2)
        else:
            T.call_ffi_kernel(
                "main_kernel", A.data, c[0], d[zero], 8, launch_params=["threadIdx.x"]
            )

    tvm.ir.assert_structural_equal(After["main"], main)
