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


def _cell_annotated_as_memory_of(device_type, scope="local"):
    """A function launching on CUDA device 1 whose cell is annotated with ``device_type``"""

    @T.prim_func
    def main():
        T.func_attr({"target": T.target("llvm")})
        T.attr("dummy", "device_type", 2)
        T.attr("dummy", "device_id", 1)
        c = T.alloc_buffer((1,), "float32", scope=scope, annotations={"device_type": device_type})
        c[0] = T.float32(1.5)

    return tvm.IRModule({"main": main})


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar on the device")
def test_allocation_annotated_as_host_memory_is_cpu_workspace():
    """An allocation annotated device_type=kDLCPU is a workspace of the CPU, device id 0"""
    ptr = T.handle("float32", "local").ty
    alloc = T.call_intrin(ptr, "tirx.TVMBackendAllocWorkspace", 1, 0, T.uint64(4), 2, 32)
    After = tvm.tirx.transform.LowerTVMBuiltin()(_cell_annotated_as_memory_of(1))

    @T.prim_func
    def main():
        T.func_attr({"target": T.target("llvm")})
        c = T.decl_buffer((1,), data=alloc, scope="local")
        if T.isnullptr(c.data):
            T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))
        c[0] = T.float32(1.5)
        if T.TVMBackendFreeWorkspace(1, 0, c.data) != 0:
            T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))

    tvm.ir.assert_structural_equal(After["main"], main)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar on the device")
def test_small_global_allocation_annotated_as_host_memory_stays_on_the_stack():
    """A small global allocation annotated device_type=kDLCPU stays on the stack, as on the CPU"""
    After = tvm.tirx.transform.LowerTVMBuiltin()(_cell_annotated_as_memory_of(1, "global"))

    @T.prim_func
    def main():
        T.func_attr({"target": T.target("llvm")})
        c = T.alloc_buffer((1,), "float32", annotations={"device_type": 1})
        c[0] = T.float32(1.5)

    tvm.ir.assert_structural_equal(After["main"], main)


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="host-level scalar on the device"
)
def test_allocation_annotated_with_another_device_is_rejected():
    """An allocation annotated with a device other than kDLCPU (host memory) is a user error"""
    with pytest.raises(ValueError, match="can only be kDLCPU"):
        tvm.tirx.transform.LowerTVMBuiltin()(_cell_annotated_as_memory_of(2))


if __name__ == "__main__":
    tvm.testing.main()
