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
@pytest.mark.parametrize("device", [2, 1], ids=["cuda", "cpu"])
def test_allocation_annotated_as_host_memory_is_cpu_workspace(device):
    """An allocation annotated device_type=kDLCPU is a workspace of the CPU, device id 0"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main():
            T.func_attr({"target": T.target("llvm")})
            T.attr("dummy", "device_type", device)
            T.attr("dummy", "device_id", 1)
            c = T.alloc_local((1,), "float32", annotations={"device_type": 1})
            c[0] = T.float32(1.5)

    @I.ir_module
    class Expected:
        @T.prim_func
        def main():
            T.func_attr({"target": T.target("llvm")})
            c = T.decl_buffer(
                (1,),
                data=T.call_intrin(
                    T.handle("float32", "local").ty,
                    "tirx.TVMBackendAllocWorkspace",
                    1,
                    0,
                    T.uint64(4),
                    2,
                    32,
                ),
                scope="local",
            )
            if T.isnullptr(c.data):
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))
            c[0] = T.float32(1.5)
            if T.TVMBackendFreeWorkspace(1, 0, c.data) != 0:
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))

    After = tvm.tirx.transform.LowerTVMBuiltin()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="host-level scalar on the device"
)
@pytest.mark.parametrize("device_type", [2, "cpu"], ids=["cuda", "not-an-integer"])
def test_allocation_annotated_with_another_device_is_rejected(device_type):
    """An allocation annotated with anything but kDLCPU (host memory) is a user error"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main():
            T.func_attr({"target": T.target("llvm")})
            T.attr("dummy", "device_type", 2)
            T.attr("dummy", "device_id", 1)
            c = T.alloc_buffer(
                (1,), "float32", scope="local", annotations={"device_type": device_type}
            )
            c[0] = T.float32(1.5)

    with pytest.raises(ValueError, match="can only be kDLCPU"):
        tvm.tirx.transform.LowerTVMBuiltin()(Before)


if __name__ == "__main__":
    tvm.testing.main()
