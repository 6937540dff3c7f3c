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


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar on the device")
def test_lower_host_local_cell_of_device_function():
    """A small local cell of a host function launching on cuda stays on the host stack"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main():
            T.func_attr({"target": T.target("llvm")})
            T.attr("dummy", "device_type", 2)  # kDLCuda
            T.attr("dummy", "device_id", 0)
            c = T.alloc_local((1,), "float32")
            c[0] = T.float32(1.5)

    @I.ir_module
    class Expected:
        @T.prim_func
        def main():
            T.func_attr({"target": T.target("llvm")})
            c = T.alloc_local((1,), "float32")
            c[0] = T.float32(1.5)

    After = tvm.tirx.transform.LowerTVMBuiltin()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.parametrize(
    "device, scope, extent",
    [(2, "global", 1), (2, "local", 256), (1, "local", 1)],
    ids=["cuda-global", "cuda-local-1KB", "cpu-local"],
)
def test_lower_host_allocation_to_workspace(device, scope, extent):
    """Global, large and CPU allocations of a host function are workspaces of its device"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main():
            T.func_attr({"target": T.target("llvm")})
            T.attr("dummy", "device_type", device)
            T.attr("dummy", "device_id", 0)
            c = T.alloc_buffer((extent,), "float32", scope=scope)
            c[0] = T.float32(1.5)

    # the workspace is typed as a pointer to the buffer's dtype and scope
    ptr_ty, nbytes = T.handle("float32", scope).ty, T.uint64(extent * 4)

    @I.ir_module
    class Expected:
        @T.prim_func
        def main():
            T.func_attr({"target": T.target("llvm")})
            c = T.decl_buffer(
                (extent,),
                data=T.call_intrin(
                    ptr_ty, "tirx.TVMBackendAllocWorkspace", device, 0, nbytes, 2, 32
                ),
                scope=scope,
            )
            if T.isnullptr(c.data):
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))
            c[0] = T.float32(1.5)
            if T.TVMBackendFreeWorkspace(device, 0, c.data) != 0:
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))

    After = tvm.tirx.transform.LowerTVMBuiltin()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


if __name__ == "__main__":
    tvm.testing.main()
