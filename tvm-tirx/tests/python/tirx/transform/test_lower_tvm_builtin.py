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
import tvm_tirx
import tvm_tirx.testing
from tvm_tirx.script import tirx as T


@pytest.mark.parametrize(
    "device, scope",
    [(2, "local"), (2, "global"), (1, "local")],
    ids=["cuda-local", "cuda-global", "cpu-local"],
)
def test_allocation_is_workspace_of_its_device(device, scope):
    """An allocation without a device_type annotation is a workspace of the enclosing device"""

    @T.ir_module
    class Before:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            with T.device_context(device, dev_id):
                c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope=scope)])
                c[0] = T.float32(0.0)

    @T.ir_module
    class Expected:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            c = T.decl_tensor(
                # the workspace is typed as a pointer to the tensor's dtype and scope
                T.alloc_workspace(device, dev_id, T.uint64(4), 2, 32, ty=T.Ptr(T.float32, scope)),
                ty_args=[T.Tensor((1,), T.float32, scope=scope)],
            )
            if T.isnullptr(c.data):
                T.throw_last_error(ty=T.int32)
            c[0] = T.float32(0.0)
            if T.free_workspace(device, dev_id, c.data) != 0:
                T.throw_last_error(ty=T.int32)

    After = tvm_tirx.tirx.transform.LowerTVMBuiltin()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar on the device")
@pytest.mark.parametrize(
    "scope, extent", [("local", 1), ("global", 1024)], ids=["local-cell", "global-4KiB"]
)
def test_host_memory_allocation_is_cpu_workspace(scope, extent):
    """An allocation annotated device_type=kDLCPU is a CPU workspace of device 0 in cuda code"""

    @T.ir_module
    class Before:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            with T.device_context(2, dev_id):
                c = T.alloc_tensor(
                    ty_args=[T.Tensor((extent,), T.float32, scope=scope)],
                    annotations={"device_type": 1},
                )
                c[0] = T.float32(0.0)

    @T.ir_module
    class Expected:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            c = T.decl_tensor(
                T.alloc_workspace(1, 0, T.uint64(4 * extent), 2, 32, ty=T.Ptr(T.float32, scope)),
                ty_args=[T.Tensor((extent,), T.float32, scope=scope)],
            )
            if T.isnullptr(c.data):
                T.throw_last_error(ty=T.int32)
            c[0] = T.float32(0.0)
            if T.free_workspace(1, 0, c.data) != 0:
                T.throw_last_error(ty=T.int32)

    After = tvm_tirx.tirx.transform.LowerTVMBuiltin()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason="host-level scalar on the device")
def test_small_global_host_memory_stays_on_stack():
    """A small global allocation annotated device_type=kDLCPU stays on the stack in cuda code"""

    @T.ir_module
    class Before:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            with T.device_context(2, dev_id):
                c = T.alloc_tensor(
                    ty_args=[T.Tensor((1,), T.float32)], annotations={"device_type": 1}
                )
                c[0] = T.float32(0.0)

    @T.ir_module
    class Expected:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32)], annotations={"device_type": 1})
            c[0] = T.float32(0.0)

    After = tvm_tirx.tirx.transform.LowerTVMBuiltin()(Before)
    tvm_tirx.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="host-level scalar on the device"
)
@pytest.mark.parametrize("device_type", [2, "cpu"], ids=["cuda", "not-an-integer"])
def test_allocation_annotated_with_another_device_is_rejected(device_type):
    """An allocation annotated with anything but kDLCPU (host memory) is a user error"""

    @T.ir_module
    class Before:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            with T.device_context(2, dev_id):
                c = T.alloc_tensor(
                    ty_args=[T.Tensor((1,), T.float32, scope="local")],
                    annotations={"device_type": device_type},
                )
                c[0] = T.float32(0.0)

    with pytest.raises(ValueError, match="can only be kDLCPU"):
        tvm_tirx.tirx.transform.LowerTVMBuiltin()(Before)


if __name__ == "__main__":
    tvm_tirx.testing.main()
