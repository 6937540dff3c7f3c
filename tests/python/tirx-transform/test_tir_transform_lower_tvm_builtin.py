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


@pytest.mark.parametrize(
    "device, scope, annotations, workspace",
    [
        (2, "global", None, (2, 1)),
        (2, "local", None, (2, 1)),
        (1, "local", None, (1, 1)),
        pytest.param(
            2,
            "local",
            {"device_type": 1},
            (1, 0),
            marks=pytest.mark.xfail(
                strict=True, raises=ValueError, reason="host-level scalar on the device"
            ),
        ),
    ],
    ids=["cuda-global", "cuda-local", "cpu-local", "cuda-host-memory"],
)
def test_lower_host_allocation_to_workspace(device, scope, annotations, workspace):
    """An allocation is a workspace of the function's device, or of the CPU if annotated so"""

    @I.ir_module
    class Before:
        @T.prim_func
        def main():
            T.func_attr({"target": T.target("llvm")})
            T.attr("dummy", "device_type", device)
            T.attr("dummy", "device_id", 1)
            c = T.alloc_buffer((1,), "float32", scope=scope, annotations=annotations)
            c[0] = T.float32(1.5)

    # the workspace is typed as a pointer to the buffer's dtype and scope
    ptr_ty = T.handle("float32", scope).ty
    # the device type and id the workspace is allocated on
    dev_type, dev_id = workspace

    @I.ir_module
    class Expected:
        @T.prim_func
        def main():
            T.func_attr({"target": T.target("llvm")})
            c = T.decl_buffer(
                (1,),
                data=T.call_intrin(
                    ptr_ty, "tirx.TVMBackendAllocWorkspace", dev_type, dev_id, T.uint64(4), 2, 32
                ),
                scope=scope,
            )
            if T.isnullptr(c.data):
                T.evaluate(T.call_intrin("int32", "tirx.tvm_throw_last_error"))
            c[0] = T.float32(1.5)
            if T.TVMBackendFreeWorkspace(dev_type, dev_id, c.data) != 0:
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
