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
"""What the AllocateWorkspace proof tests of module shapes and of mutants share: the pass as
TVM's relax conftest runs it (under WellFormedInstrument: an ill-formed output raises
AssertionError before any check of the test), the released pass's symptoms as exceptions and
xfail marks, and the module of two structurally equal private Codegen functions."""

import pytest

import tvm
from tvm import relax
from tvm.relax.ir.instrument import WellFormedInstrument
from tvm.script import ir as I
from tvm.script import relax as R


class WorkspaceInDataflowBlockError(Exception):
    """The entry allocates the workspace inside a dataflow block (the released layout)."""


class WorkspaceSizeIgnoredError(Exception):
    """The pass left a module with a sized (local) function unchanged."""


STALE = pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="callers of a renamed function keep its removed GlobalVar (apache/tvm#20479)",
)
IN_DATAFLOW = pytest.mark.xfail(
    strict=True,
    raises=WorkspaceInDataflowBlockError,
    reason="the workspace is allocated in the first dataflow block (apache/tvm#20479)",
)


def allocate_workspace(mod):
    with tvm.transform.PassContext(instruments=[WellFormedInstrument()]):
        return relax.transform.AllocateWorkspace()(mod)


def allocate_workspace_at_entry(mod):
    """The pass's output; WorkspaceInDataflowBlockError where the entry allocates inside a
    dataflow block."""
    After = allocate_workspace(mod)
    alloc = tvm.ir.Op.get("relax.builtin.alloc_tensor")
    for block in After["main"].body.blocks:
        if isinstance(block, relax.DataflowBlock) and any(
            isinstance(b.value, relax.Call) and b.value.op.same_as(alloc) for b in block.bindings
        ):
            raise WorkspaceInDataflowBlockError(After["main"].script())
    return After


@I.ir_module
class EqualPair:
    """The entry calls ``left`` and ``right``, two structurally equal private Codegen functions
    that call the sized ``inner``."""

    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        y = EqualPair.left(x)
        z = EqualPair.right(y)
        return z

    @R.function(private=True)
    def left(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        return EqualPair.inner(x)

    @R.function(private=True)
    def right(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        return EqualPair.inner(x)

    @R.function(private=True)
    def inner(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 256})
        return R.nn.relu(x)
