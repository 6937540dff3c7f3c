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
from tvm_tirx.script import ir as I
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx import transform as tr

HOST_CELL = "host-level scalar on the device"


@pytest.mark.parametrize(
    "device, scope",
    [(2, "local"), (2, "global"), (1, "local")],
    ids=["cuda-local", "cuda-global", "cpu-local"],
)
def test_plain_alloc_tensor_is_workspace_of_device_context(device, scope):
    """An alloc_tensor without annotations gets a workspace of the T.device_context around it"""

    @I.ir_module
    class Before:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            with T.device_context(device, dev_id):
                c = T.alloc_tensor(ty_args=[T.Tensor((1,), T.float32, scope=scope)])
                c[0] = T.float32(0.0)

    @I.ir_module
    class Expected:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            c = T.decl_tensor(
                T.alloc_workspace(device, dev_id, T.uint64(4), 2, 32, ty=T.Ptr(T.float32, scope)),
                ty_args=[T.Tensor((1,), T.float32, scope=scope)],
            )
            if T.isnullptr(c.data):
                T.throw_last_error(ty=T.int32)
            c[0] = T.float32(0.0)
            if T.free_workspace(device, dev_id, c.data) != 0:
                T.throw_last_error(ty=T.int32)

    tvm_tirx.ir.assert_structural_equal(tr.LowerTVMBuiltin()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_CELL)
@pytest.mark.parametrize("scope, extent", [("local", 1), ("local", 2), ("global", 1024)])
def test_alloc_tensor_marked_device_type_1_is_cpu_workspace_in_cuda_context(scope, extent):
    """In T.device_context(2, dev_id) an alloc_tensor marked device_type 1 gets workspace (1, 0)"""

    @I.ir_module
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

    @I.ir_module
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

    tvm_tirx.ir.assert_structural_equal(tr.LowerTVMBuiltin()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=ValueError, reason=HOST_CELL)
@pytest.mark.parametrize("extent", [1, 255])  # 4 and 1,020 bytes: under the CPU's stack limit
def test_small_global_alloc_tensor_marked_device_type_1_stays_alloc_tensor(extent):
    """A small global alloc_tensor marked device_type 1 is left for the CPU stack"""

    @I.ir_module
    class Before:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            with T.device_context(2, dev_id):
                c = T.alloc_tensor(
                    ty_args=[T.Tensor((extent,), T.float32)], annotations={"device_type": 1}
                )
                c[0] = T.float32(0.0)

    @I.ir_module
    class Expected:
        @T.function
        def main(dev_id: T.int32):
            T.func_attr({"target": T.target("llvm")})
            c = T.alloc_tensor(
                ty_args=[T.Tensor((extent,), T.float32)], annotations={"device_type": 1}
            )
            c[0] = T.float32(0.0)

    tvm_tirx.ir.assert_structural_equal(tr.LowerTVMBuiltin()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=pytest.fail.Exception, reason=HOST_CELL)
@pytest.mark.parametrize("device_type", [2, 0, "cpu"], ids=["kDLCUDA", "zero", "a-string"])
def test_device_type_annotation_other_than_1_is_a_value_error(device_type):
    """LowerTVMBuiltin accepts device_type 1 (kDLCPU) only and names it in the error"""

    @I.ir_module
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
        tr.LowerTVMBuiltin()(Before)


if __name__ == "__main__":
    tvm_tirx.testing.main()
