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
"""AllocateWorkspace on more module shapes than the upstream file has room for (proof only).

Semantics as in bugs/allocate_workspace/reference_fix.py. Each shape isolates one rule the
upstream tests check only together with others, so that every wrong fix of
bugs/allocate_workspace/wrong_fixes.toml fails a second test here:

* three module-level levels without a local function (callers followed transitively,
  references in module-level Composite functions rewritten, a private renamed function
  stays private);
* a local function of a Codegen function calling a module-level function (references in
  local functions rewritten);
* the entry calling one function twice and a Codegen function calling it too (one
  allocation for all calls of a function, at the entry, outside the dataflow block);
* the fresh name already taken (``inner1`` exists: ``inner`` becomes ``inner2``);
* the caller of the renamed function is an ordinary function (it allocates; the entry,
  which calls nothing that takes the workspace, allocates nothing);
* calls in a later dataflow block, and in both branches of an If without any dataflow
  block (the allocation at entry is in scope for all of them);
* a call through a variable bound to a renamed GlobalVar, in a Codegen function;
* a Codegen function without WorkspaceSize whose local Composite function has it, called
  by the entry beside a module-level sized function, and alone (W then comes from the
  local function);
* a function of WorkspaceSize 0 beside one of 256 (it takes the workspace as any sized
  function), and a module whose sizes are all 0, a local one included (left unchanged);
* a local function without Codegen/Composite inside a Codegen function calling a sized
  function: an error, since the workspace would be allocated inside external code;
* the report's module itself, and TVM's own case (a sized Codegen function and its local
  Composite function) as a control: upstream until the PR was cut to 150 test lines;
* the attention Expected that patch 0001 writes into test_codegen_cutlass.py (a test that
  needs USE_CUTLASS), checked against the pass's output on its input.

The pass runs under WellFormedInstrument, as in TVM's relax conftest (allocate_workspace_cases.py).
"""

import sys
from pathlib import Path

import pytest
import tvm_ffi

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parent))
import allocate_workspace_cases as cases


class UnusedWorkspaceError(Exception):
    """A function that calls nothing taking the workspace allocates one."""


@cases.STALE
def test_three_module_level_levels():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            return Before.outer(x)

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Before.middle(x)

        @R.function(private=True)
        def middle(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.pair"})
            return Before.inner(x)

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
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
            return Expected.middle1(x, workspace)

        @R.function(private=True)
        def middle1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.pair"})
            return Expected.inner1(x, workspace)

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@cases.STALE
def test_local_function_of_codegen_function_calls_module_level_function():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            return Before.outer(x)

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def local(y: R.Tensor) -> R.Tensor:
                R.func_attr({"Composite": "ext.relu"})
                return Before.inner(y)

            return local(x)

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
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

            @R.function
            def local(y: R.Tensor, workspace1: R.Tensor((1024,), "uint8")) -> R.Tensor:
                R.func_attr({"Composite": "ext.relu"})
                return Expected.inner1(y, workspace1)

            return local(x, workspace)

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@cases.STALE
def test_entry_calls_twice_and_codegen_function_calls_too():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            with R.dataflow():
                y = Before.inner(x)
                z = Before.inner(y)
                w = Before.outer(z)
                R.output(w)
            return w

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Before.inner(x)

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 512})
            return R.nn.relu(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([512]), R.dtype("uint8"), R.prim_value(0))
            with R.dataflow():
                y = Expected.inner1(x, ws)
                z = Expected.inner1(y, ws)
                w = Expected.outer1(z, ws)
                R.output(w)
            return w

        @R.function
        def outer1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Expected.inner1(x, workspace)

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@cases.STALE
def test_fresh_name_already_taken():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            with R.dataflow():
                y = Before.outer(x)
                z = Before.inner1(y)
                R.output(z)
            return z

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Before.inner(x)

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 512})
            return R.nn.relu(x)

        @R.function
        def inner1(x: R.Tensor) -> R.Tensor:
            return R.exp(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([512]), R.dtype("uint8"), R.prim_value(0))
            with R.dataflow():
                y = Expected.outer1(x, ws)
                z = Expected.inner1(y)
                R.output(z)
            return z

        @R.function
        def outer1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Expected.inner2(x, workspace)

        @R.function
        def inner2(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

        @R.function
        def inner1(x: R.Tensor) -> R.Tensor:
            return R.exp(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@pytest.mark.xfail(
    strict=True,
    raises=UnusedWorkspaceError,
    reason="every function with a dataflow block allocates a workspace (apache/tvm#20479)",
)
def test_ordinary_caller_allocates_and_entry_allocates_nothing():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            with R.dataflow():
                y = Before.outer(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            with R.dataflow():
                y = Before.inner(x)
                R.output(y)
            return y

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 512})
            return R.nn.relu(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            with R.dataflow():
                y = Expected.outer(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([512]), R.dtype("uint8"), R.prim_value(0))
            with R.dataflow():
                y = Expected.inner1(x, ws)
                R.output(y)
            return y

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    After = cases.allocate_workspace(Before)
    if not tvm_ffi.structural_equal(After["main"], Before["main"]):
        raise UnusedWorkspaceError(After["main"].script())
    tvm.ir.assert_structural_equal(After, Expected)


@cases.STALE
def test_later_dataflow_block_sees_the_workspace():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            with R.dataflow():
                y = Before.inner(x)
                R.output(y)
            a = R.negative(y)
            with R.dataflow():
                z = Before.inner(a)
                R.output(z)
            return z

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 512})
            return R.nn.relu(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([512]), R.dtype("uint8"), R.prim_value(0))
            with R.dataflow():
                y = Expected.inner1(x, ws)
                R.output(y)
            a = R.negative(y)
            with R.dataflow():
                z = Expected.inner1(a, ws)
                R.output(z)
            return z

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="a call outside any dataflow block finds no workspace (apache/tvm#20479)",
)
def test_if_branches_without_dataflow_block_see_the_workspace():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor, c: R.Tensor((), "bool")) -> R.Tensor:
            if c:
                y = Before.relu(x)
            else:
                y = Before.relu(R.negative(x))
            return y

        @R.function
        def relu(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 512})
            return R.nn.relu(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor, c: R.Tensor((), "bool")) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([512]), R.dtype("uint8"), R.prim_value(0))
            if c:
                y = Expected.relu1(x, ws)
            else:
                y = Expected.relu1(R.negative(x), ws)
            return y

        @R.function
        def relu1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@cases.STALE
def test_call_through_variable_bound_to_renamed_function():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            return Before.outer(x)

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            f = Before.inner
            return f(x)

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
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
            f = Expected.inner1
            return f(x, workspace)

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@cases.STALE
def test_call_through_chain_of_three_bindings_in_a_dataflow_block():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                y = Before.outer(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "ext"})
            f = Before.inner
            g = f
            h = g
            return h(x)

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 256})
            return R.nn.relu(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            workspace_main = R.builtin.alloc_tensor(
                R.shape([256]), R.dtype("uint8"), R.prim_value(0)
            )
            with R.dataflow():
                y = Expected.outer1(x, workspace_main)
                R.output(y)
            return y

        @R.function
        def outer1(x: R.Tensor((4,), "float32"), workspace: R.Tensor((256,), "uint8")) -> R.Tensor(
            (4,), "float32"
        ):
            R.func_attr({"Codegen": "ext"})
            f = Expected.inner1
            g = f
            h = g
            return h(x, workspace)

        @R.function
        def inner1(x: R.Tensor((4,), "float32"), workspace: R.Tensor((256,), "uint8")) -> R.Tensor(
            (4,), "float32"
        ):
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="a call outside any dataflow block finds no workspace (apache/tvm#20479)",
)
def test_entry_calls_codegen_function_whose_local_composite_is_sized():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            y = Before.fused(x)
            return Before.inner(y)

        @R.function
        def fused(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def local(y: R.Tensor) -> R.Tensor:
                R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 2048})
                return R.exp(y)

            return local(x)

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
            return R.nn.relu(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([2048]), R.dtype("uint8"), R.prim_value(0))
            y = Expected.fused1(x, ws)
            return Expected.inner1(y, ws)

        @R.function
        def fused1(x: R.Tensor, workspace: R.Tensor((2048,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def local(y: R.Tensor, workspace1: R.Tensor((2048,), "uint8")) -> R.Tensor:
                R.func_attr({"Composite": "ext.exp"})
                return R.exp(y)

            return local(x, workspace)

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((2048,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@pytest.mark.xfail(
    strict=True,
    raises=cases.WorkspaceSizeIgnoredError,
    reason="only module-level WorkspaceSize is read (apache/tvm#20479)",
)
def test_only_a_local_function_is_sized():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            return Before.fused(x)

        @R.function
        def fused(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def local(y: R.Tensor) -> R.Tensor:
                R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 2048})
                return R.exp(y)

            return local(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([2048]), R.dtype("uint8"), R.prim_value(0))
            return Expected.fused1(x, ws)

        @R.function
        def fused1(x: R.Tensor, workspace: R.Tensor((2048,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def local(y: R.Tensor, workspace1: R.Tensor((2048,), "uint8")) -> R.Tensor:
                R.func_attr({"Composite": "ext.exp"})
                return R.exp(y)

            return local(x, workspace)

    After = cases.allocate_workspace(Before)
    if tvm_ffi.structural_equal(After, Before):
        raise cases.WorkspaceSizeIgnoredError(After.script())
    tvm.ir.assert_structural_equal(After, Expected)


@cases.STALE
def test_function_of_workspace_size_0_takes_the_workspace():
    """WorkspaceSize 0 is a WorkspaceSize: beside a function of 256, the function of 0 takes
    the 256-byte workspace, renamed, as any sized function, and its Codegen caller passes it."""

    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            return Before.outer(x)

        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            y = Before.exp(x)
            return Before.relu(y)

        @R.function(private=True)
        def exp(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 0})
            return R.exp(x)

        @R.function
        def relu(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 256})
            return R.nn.relu(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([256]), R.dtype("uint8"), R.prim_value(0))
            return Expected.outer1(x, ws)

        @R.function
        def outer1(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            y = Expected.exp1(x, workspace)
            return Expected.relu1(y, workspace)

        @R.function(private=True)
        def exp1(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.exp"})
            return R.exp(x)

        @R.function
        def relu1(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


def test_module_whose_sizes_are_all_0_local_one_included_is_unchanged():
    """W is 0 (a local function's WorkspaceSize 0 included): no workspace, no renaming, the
    module as it is (the released pass returns it too)."""

    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            return Before.fused(x)

        @R.function
        def fused(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def local(y: R.Tensor) -> R.Tensor:
                R.func_attr({"Composite": "ext.exp", "WorkspaceSize": 0})
                return R.exp(y)

            return local(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Before)


@cases.STALE
def test_plain_local_function_in_codegen_function_cannot_allocate():
    @I.ir_module
    class Before:
        @R.function
        def outer(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})

            @R.function
            def helper(y: R.Tensor) -> R.Tensor:
                return Before.inner(y)

            return helper(x)

        @R.function
        def inner(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
            return R.nn.relu(x)

    with pytest.raises(ValueError, match="`helper` calls `inner`, .* external function `outer`"):
        cases.allocate_workspace(Before)


@cases.STALE
def test_equal_private_codegen_functions_both_kept():
    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([256]), R.dtype("uint8"), R.prim_value(0))
            y = Expected.left1(x, ws)
            z = Expected.right1(y, ws)
            return z

        @R.function(private=True)
        def left1(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Expected.inner1(x, workspace)

        @R.function(private=True)
        def right1(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Expected.inner1(x, workspace)

        @R.function(private=True)
        def inner1(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(cases.EqualPair), Expected)


@cases.STALE
def test_report_module_codegen_function_calls_renamed_composite():
    """apache/tvm#20479's module as reported (upstream until the PR was cut to 150 lines)."""

    @I.ir_module
    class Before:
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
        def outer1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Codegen": "ext"})
            return Expected.inner1(x, workspace)

        @R.function
        def inner1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "Primitive": True})
            return R.nn.relu(x)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


def test_control_sized_codegen_function_passes_workspace_to_local_composite():
    """Control: TVM's own case, a sized Codegen function and its local Composite function."""

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
            def local(y: R.Tensor, workspace_1: R.Tensor((256,), "uint8")) -> R.Tensor:
                R.func_attr({"Composite": "ext.relu"})
                return R.nn.relu(y)

            return local(x, workspace)

    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@cases.IN_DATAFLOW
def test_cutlass_attention_expected_of_patch_0001():
    """Patch 0001's Expected of test_codegen_cutlass.py::test_attention_rewrite_fp16 (USE_CUTLASS
    only, never run) is what the pass makes of the module partition_for_cutlass hands it: that
    Expected with WorkspaceSize on the Codegen function and its Composite function, and without
    the workspace. The pass removes WorkspaceSize from every function it gives the workspace (the
    released pass too), so the two WorkspaceSize attributes the old Expected kept never matched.
    WorkspaceSize is an int here: at this commit annotate_workspace fails on the dtype object
    first, and the IntImm it would set is refused by GetAttr<int64_t> with or without the fix."""
    f16 = "float16"

    @I.ir_module
    class Before:
        @R.function
        def fused_relax_nn_attention_bias_cutlass(
            q: R.Tensor((4, 16, 32, 8), f16),
            k: R.Tensor((4, 8, 32, 8), f16),
            v: R.Tensor((4, 8, 32, 16), f16),
            lv1: R.Tensor((4, 32, 16, 8), f16),
        ) -> R.Tensor((4, 16, 32, 16), f16):
            R.func_attr({"Codegen": "cutlass", "WorkspaceSize": 65536})

            @R.function
            def gv_1(
                q_1: R.Tensor((4, 16, 32, 8), f16),
                k_1: R.Tensor((4, 8, 32, 8), f16),
                v_1: R.Tensor((4, 8, 32, 16), f16),
                lv1_1: R.Tensor((4, 32, 16, 8), f16),
            ) -> R.Tensor((4, 16, 32, 16), f16):
                R.func_attr({"Composite": "cutlass.attention_bias", "WorkspaceSize": 65536})
                with R.dataflow():
                    gv_2 = R.nn.attention(
                        q_1, k_1, v_1, lv1_1, scale=T.float32(0.5), causal_mask=None
                    )
                    R.output(gv_2)
                return gv_2

            gv1: R.Tensor((4, 16, 32, 16), f16) = gv_1(q, k, v, lv1)
            return gv1

        @R.function
        def main(
            q: R.Tensor((4, 16, 32, 8), f16),
            k: R.Tensor((4, 8, 32, 8), f16),
            v: R.Tensor((4, 8, 32, 16), f16),
            bias: R.Tensor((4, 32, 16, 8), f16),
        ) -> R.Tensor((4, 16, 32, 16), "float32"):
            R.func_attr({"num_input": 4})
            cls = Before
            with R.dataflow():
                lv_1 = R.reshape(bias, R.shape([128, 16, 8]))
                lv1 = R.reshape(lv_1, R.shape([4, 32, 16, 8]))
                lv_2 = cls.fused_relax_nn_attention_bias_cutlass(q, k, v, lv1)
                lv14 = R.astype(lv_2, dtype="float32")
                R.output(lv14)
            return lv14

    # test_codegen_cutlass.py's Expected as patch 0001 leaves it (`s_tir=True` dropped: no TIR)
    @I.ir_module
    class Expected:
        @R.function
        def fused_relax_nn_attention_bias_cutlass1(
            q: R.Tensor((4, 16, 32, 8), dtype="float16"),
            k: R.Tensor((4, 8, 32, 8), dtype="float16"),
            v: R.Tensor((4, 8, 32, 16), dtype="float16"),
            lv1: R.Tensor((4, 32, 16, 8), dtype="float16"),
            workspace: R.Tensor((65536,), dtype="uint8"),
        ) -> R.Tensor((4, 16, 32, 16), dtype="float16"):
            R.func_attr(
                {
                    "Codegen": "cutlass",
                    "global_symbol": "fused_relax_nn_attention_bias_cutlass1",
                }
            )

            @R.function
            def gv_1(
                q_1: R.Tensor((4, 16, 32, 8), dtype="float16"),
                k_1: R.Tensor((4, 8, 32, 8), dtype="float16"),
                v_1: R.Tensor((4, 8, 32, 16), dtype="float16"),
                lv1_1: R.Tensor((4, 32, 16, 8), dtype="float16"),
                workspace_1: R.Tensor((65536,), dtype="uint8"),
            ) -> R.Tensor((4, 16, 32, 16), dtype="float16"):
                R.func_attr(
                    {
                        "Composite": "cutlass.attention_bias",
                    }
                )
                with R.dataflow():
                    gv_2 = R.nn.attention(
                        q_1, k_1, v_1, lv1_1, scale=T.float32(0.5), causal_mask=None
                    )
                    R.output(gv_2)
                return gv_2

            gv1: R.Tensor((4, 16, 32, 16), dtype="float16") = gv_1(q, k, v, lv1, workspace)
            return gv1

        @R.function
        def main(
            q: R.Tensor((4, 16, 32, 8), dtype="float16"),
            k: R.Tensor((4, 8, 32, 8), dtype="float16"),
            v: R.Tensor((4, 8, 32, 16), dtype="float16"),
            bias: R.Tensor((4, 32, 16, 8), dtype="float16"),
        ) -> R.Tensor((4, 16, 32, 16), dtype="float32"):
            R.func_attr({"num_input": 4})
            cls = Expected
            workspace_main = R.builtin.alloc_tensor(
                R.shape([65536]), R.dtype("uint8"), R.prim_value(0)
            )
            with R.dataflow():
                lv_1 = R.reshape(bias, R.shape([128, 16, 8]))
                lv1 = R.reshape(lv_1, R.shape([4, 32, 16, 8]))
                lv_2 = cls.fused_relax_nn_attention_bias_cutlass1(q, k, v, lv1, workspace_main)
                lv14 = R.astype(lv_2, dtype="float32")
                R.output(lv14)
            return lv14

    tvm.ir.assert_structural_equal(cases.allocate_workspace_at_entry(Before), Expected)


if __name__ == "__main__":
    tvm.testing.main()
