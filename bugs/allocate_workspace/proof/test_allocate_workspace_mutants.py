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
"""AllocateWorkspace where the callers come first in the module's function order (proof only).

A mutant of bugs/allocate_workspace/reference_fix.py (scripts/mutants.py) that grows the set of
functions taking the workspace in one pass over the module's functions survived every other
test: there the sized function's name sorts before its callers' (``inner`` before ``middle``
before ``outer``), and one pass in that order finds the whole chain. Here the chain's names
sort caller first (``outer`` calls ``relu``, or ``pair``, which calls ``relu``): only
following callers until nothing changes reaches the Codegen function.
"""

import pytest

import tvm
import tvm.testing
from tvm import relax
from tvm.relax.ir.instrument import WellFormedInstrument
from tvm.script import ir as I
from tvm.script import relax as R


def allocate_workspace(mod):
    with tvm.transform.PassContext(instruments=[WellFormedInstrument()]):
        return relax.transform.AllocateWorkspace()(mod)


@I.ir_module
class CodegenCallsSized:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        return CodegenCallsSized.outer(x)

    @R.function
    def outer(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        return CodegenCallsSized.relu(x)

    @R.function(private=True)
    def relu(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
        return R.nn.relu(x)


@I.ir_module
class CodegenCallsSizedExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([1024]), R.dtype("uint8"), R.prim_value(0))
        return CodegenCallsSizedExpected.outer1(x, ws)

    @R.function
    def outer1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        return CodegenCallsSizedExpected.relu1(x, workspace)

    @R.function(private=True)
    def relu1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu"})
        return R.nn.relu(x)


@I.ir_module
class CodegenCompositeSized:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        return CodegenCompositeSized.outer(x)

    @R.function
    def outer(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        return CodegenCompositeSized.pair(x)

    @R.function(private=True)
    def pair(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.pair"})
        return CodegenCompositeSized.relu(x)

    @R.function(private=True)
    def relu(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
        return R.nn.relu(x)


@I.ir_module
class CodegenCompositeSizedExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([1024]), R.dtype("uint8"), R.prim_value(0))
        return CodegenCompositeSizedExpected.outer1(x, ws)

    @R.function
    def outer1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        return CodegenCompositeSizedExpected.pair1(x, workspace)

    @R.function(private=True)
    def pair1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
        R.func_attr({"Composite": "ext.pair"})
        return CodegenCompositeSizedExpected.relu1(x, workspace)

    @R.function(private=True)
    def relu1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu"})
        return R.nn.relu(x)


CHAINS = {
    "codegen-sized": (CodegenCallsSized, CodegenCallsSizedExpected),
    "codegen-composite-sized": (CodegenCompositeSized, CodegenCompositeSizedExpected),
}


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="callers of a renamed function keep its removed GlobalVar (apache/tvm#20479)",
)
@pytest.mark.parametrize("chain", CHAINS)
def test_chain_whose_callers_sort_first_takes_the_workspace(chain):
    """Every function of a chain named caller first takes the workspace."""
    Before, Expected = CHAINS[chain]
    tvm.ir.assert_structural_equal(allocate_workspace(Before), Expected)


if __name__ == "__main__":
    tvm.testing.main()
