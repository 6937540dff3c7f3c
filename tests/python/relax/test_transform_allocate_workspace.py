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
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="stale GlobalVar (apache/tvm#20479)")
def test_codegen_function_calls_renamed_composite():
    """Callers of a renamed Composite pass one workspace, allocated at main's entry, everywhere."""

    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor, c: R.Tensor((), "bool")) -> R.Tensor:
            with R.dataflow():
                y = Before.outer(x)
                R.output(y)
            if c:
                z = Before.inner(y)
            else:
                z = Before.outer(y)
            with R.dataflow():
                w = Before.inner(z)
                R.output(w)
            return w

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
        def main(x: R.Tensor, c: R.Tensor((), "bool")) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([1024]), R.dtype("uint8"), R.prim_value(0))
            with R.dataflow():
                y = Expected.outer1(x, ws)
                R.output(y)
            if c:
                z = Expected.inner1(y, ws)
            else:
                z = Expected.outer1(y, ws)
            with R.dataflow():
                w = Expected.inner1(z, ws)
                R.output(w)
            return w

        @R.function
        def outer1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Expected.inner1(x, workspace)

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "Primitive": True})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(relax.transform.AllocateWorkspace()(Before), Expected)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="stale GlobalVar (apache/tvm#20479)")
def test_external_callers_at_every_level_take_the_workspace():
    """An external function calling a sized function, local or module-level, takes the workspace."""

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
                R.func_attr({"Composite": "ext.exp"})
                return Before.exp(y)

            f = Before.exp
            return f(local(x))

        @R.function
        def exp(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 4096})
            return R.exp(x)

        @R.function
        def fused(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def local(y: R.Tensor) -> R.Tensor:
                R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 8192})
                return R.nn.relu(y)

            return local(x)

    @I.ir_module
    class Expected:
        @R.function
        def outer1(x: R.Tensor, workspace: R.Tensor((8192,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Expected.middle1(x, workspace)

        @R.function(private=True)
        def middle1(x: R.Tensor, workspace: R.Tensor((8192,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.pair"})

            @R.function
            def local(y: R.Tensor, workspace1: R.Tensor((8192,), "uint8")) -> R.Tensor:
                R.func_attr({"Composite": "ext.exp"})
                return Expected.exp1(y, workspace1)

            f = Expected.exp1
            return f(local(x, workspace), workspace)

        @R.function
        def exp1(x: R.Tensor, workspace: R.Tensor((8192,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp"})
            return R.exp(x)

        @R.function
        def fused1(x: R.Tensor, workspace: R.Tensor((8192,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def local(y: R.Tensor, workspace1: R.Tensor((8192,), "uint8")) -> R.Tensor:
                R.func_attr({"Composite": "ext.relu"})
                return R.nn.relu(y)

            return local(x, workspace)

    tvm.ir.assert_structural_equal(relax.transform.AllocateWorkspace()(Before), Expected)


def test_codegen_function_with_workspace_size_passes_it_to_local_composite():
    """Control: a sized Codegen function takes the workspace, passes it to its local Composite."""

    @I.ir_module
    class Before:
        @R.function
        def fused(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext", "WorkspaceSize": 256})

            @R.function
            def local(y: R.Tensor) -> R.Tensor:
                R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 256})
                return R.nn.relu(y)

            return local(x)

    @I.ir_module
    class Expected:
        @R.function
        def fused1(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def local(y: R.Tensor, workspace1: R.Tensor((256,), "uint8")) -> R.Tensor:
                R.func_attr({"Composite": "ext.relu"})
                return R.nn.relu(y)

            return local(x, workspace)

    tvm.ir.assert_structural_equal(relax.transform.AllocateWorkspace()(Before), Expected)


if __name__ == "__main__":
    tvm.testing.main()
