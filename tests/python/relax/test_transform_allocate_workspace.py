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
@pytest.mark.parametrize("size_b", [1024, 0, 4096])
def test_workspace_is_passed_down_every_call_chain_to_the_renamed_callees(size_b):
    """apache/tvm#20479: calls on a chain to a sized function, via locals too, pass the largest."""
    size = max(1024, size_b)

    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            with R.dataflow():
                f = Before.outer
                g = f
                y = g(f(x))
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def wrap(y: R.Tensor) -> R.Tensor:
                R.func_attr({"Composite": "ext.wrap"})
                return Before.pair(y)

            return wrap(x)

        @R.function
        def pair(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.pair"})
            return Before.exp_b(Before.exp_a(x))

        @R.function(private=True)
        def exp_a(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 1024})
            return R.exp(x)

        @R.function(private=True)
        def exp_b(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp", "WorkspaceSize": size_b})
            return R.exp(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            workspace_main = R.builtin.alloc_tensor(R.shape([size]), "uint8", 0)
            with R.dataflow():
                f = Expected.outer1
                g = f
                y = g(f(x, workspace_main), workspace_main)
                R.output(y)
            return y

        @R.function
        def outer1(x: R.Tensor, workspace: R.Tensor((size,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def wrap(y: R.Tensor, workspace_1: R.Tensor((size,), "uint8")) -> R.Tensor:
                R.func_attr({"Composite": "ext.wrap"})
                return Expected.pair1(y, workspace_1)

            return wrap(x, workspace)

        @R.function
        def pair1(x: R.Tensor, workspace: R.Tensor((size,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.pair"})
            return Expected.exp_b1(Expected.exp_a1(x, workspace), workspace)

        @R.function(private=True)
        def exp_a1(x: R.Tensor, workspace: R.Tensor((size,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp"})
            return R.exp(x)

        @R.function(private=True)
        def exp_b1(x: R.Tensor, workspace: R.Tensor((size,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp"})
            return R.exp(x)

    tvm.ir.assert_structural_equal(relax.transform.AllocateWorkspace()(Before), Expected)


def test_module_whose_workspace_sizes_are_all_zero_is_left_unchanged():
    """A module whose every WorkspaceSize is 0 needs no workspace and is left unchanged."""

    @R.function
    def exp(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 0})
        return R.exp(x)

    Before = tvm.IRModule({"exp": exp})
    tvm.ir.assert_structural_equal(relax.transform.AllocateWorkspace()(Before), Before)


@pytest.mark.xfail(
    strict=True, raises=pytest.fail.Exception, reason="a local size is ignored (apache/tvm#20479)"
)
def test_call_needing_the_workspace_inside_external_code_is_an_error():
    """A call needing the workspace (a local size counts) inside external code is an error."""

    @I.ir_module
    class Before:
        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def helper(y: R.Tensor) -> R.Tensor:
                return Before.exp(y)

            return helper(x)

        @R.function
        def exp(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp"})

            @R.function
            def local(y: R.Tensor) -> R.Tensor:
                R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 1024})
                return R.exp(y)

            return local(x)

    with pytest.raises(ValueError, match="`helper` calls `exp`.* external function `outer`"):
        relax.transform.AllocateWorkspace()(Before)


if __name__ == "__main__":
    tvm.testing.main()
