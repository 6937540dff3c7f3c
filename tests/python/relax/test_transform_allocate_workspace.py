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
import numpy as np
import pytest

import tvm
import tvm.testing
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="stale GlobalVar (apache/tvm#20479)")
def test_codegen_function_calls_renamed_composite():
    """A Codegen function calling a module-level Composite gets the workspace and the new name."""

    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            return Before.outer(x)

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Before.inner(x)

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "Primitive": True, "WorkspaceSize": 1024})
            return R.nn.relu(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([1024]), R.dtype("uint8"), R.prim_value(0))
            return Expected.outer1(x, ws)

        @R.function
        def outer1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Expected.inner1(x, workspace)

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "Primitive": True})
            return R.nn.relu(x)

    After = relax.transform.AllocateWorkspace()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="stale GlobalVar (apache/tvm#20479)")
def test_external_callers_at_every_level_take_the_workspace():
    """Codegen, Composite and local callers of renamed functions all take and pass the workspace."""

    @I.ir_module
    class Before:
        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Before.middle(x)

        @R.function(private=True)
        def middle(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.pair"})

            @R.function
            def local(y: R.Tensor) -> R.Tensor:
                R.func_attr({"Composite": "ext.relu"})
                return Before.relu(y)

            return Before.exp(local(x))

        @R.function
        def relu(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 256})
            return R.nn.relu(x)

        @R.function
        def exp(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 4096})
            return R.exp(x)

    @I.ir_module
    class Expected:
        @R.function
        def outer1(x: R.Tensor, workspace: R.Tensor((4096,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Expected.middle1(x, workspace)

        @R.function(private=True)
        def middle1(x: R.Tensor, workspace: R.Tensor((4096,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.pair"})

            @R.function
            def local(y: R.Tensor, workspace1: R.Tensor((4096,), "uint8")) -> R.Tensor:
                R.func_attr({"Composite": "ext.relu"})
                return Expected.relu1(y, workspace1)

            return Expected.exp1(local(x, workspace), workspace)

        @R.function
        def relu1(x: R.Tensor, workspace: R.Tensor((4096,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

        @R.function
        def exp1(x: R.Tensor, workspace: R.Tensor((4096,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp"})
            return R.exp(x)

    After = relax.transform.AllocateWorkspace()(Before)
    tvm.ir.assert_structural_equal(After, Expected)


def test_entry_function_passes_one_workspace_of_the_largest_size():
    """The entry function allocates the largest workspace once and passes it to every call."""

    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                y = Before.relu(x)
                z = Before.exp(y)
                R.output(z)
            return z

        @R.function
        def relu(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 256})
            return R.nn.relu(x)

        @R.function
        def exp(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 4096})
            return R.exp(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                ws = R.builtin.alloc_tensor(R.shape([4096]), R.dtype("uint8"), R.prim_value(0))
                y = Expected.relu1(x, ws)
                z = Expected.exp1(y, ws)
                R.output(z)
            return z

        @R.function
        def relu1(x: R.Tensor((4,), "float32"), workspace: R.Tensor((4096,), "uint8")) -> R.Tensor(
            (4,), "float32"
        ):
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

        @R.function
        def exp1(x: R.Tensor((4,), "float32"), workspace: R.Tensor((4096,), "uint8")) -> R.Tensor(
            (4,), "float32"
        ):
            R.func_attr({"Composite": "ext.exp"})
            return R.exp(x)

    After = relax.transform.AllocateWorkspace()(Before)
    tvm.ir.assert_structural_equal(After, Expected)

    # main runs in the VM, and each renamed function receives the one workspace
    vm = relax.VirtualMachine(relax.build(After, target="llvm"), tvm.cpu())
    received = []

    def record_workspace(func, name, before_run, ret, *args):
        if before_run and name in ("relu1", "exp1"):
            received.append((name, args[-1].shape, args[-1].dtype))

    vm.set_instrument(record_workspace)
    x = np.array([-2, -1, 1, 2], "float32")
    tvm.testing.assert_allclose(vm["main"](tvm.runtime.tensor(x)).numpy(), np.exp(np.maximum(x, 0)))
    assert received == [("relu1", (4096,), "uint8"), ("exp1", (4096,), "uint8")]


if __name__ == "__main__":
    tvm.testing.main()
