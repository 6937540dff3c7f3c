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
"""AllocateWorkspace on the programs that tell mutants of the reference fix apart (proof only).

Each case below is a program on which a mutant of bugs/allocate_workspace/reference_fix.py
(scripts/mutants.py) gives another module than the reference fix, and which no other test
had:

* a chain whose names sort caller first (``outer`` calls ``relu``, or ``pair``, which calls
  ``relu``): only following callers until nothing changes reaches the Codegen function (a
  mutant grew the set of functions taking the workspace in one pass over the module);
* an external function beside the sized one that calls nothing taking the workspace: it
  keeps its signature (a mutant took every external function once any function took it);
* the entry function's blocks in other orders (an ordinary block first, a dataflow block
  first and an ordinary block last): the allocation joins a first ordinary block, else
  comes in front of the first block (mutants read, replaced or inserted at the last block);
* two structurally equal private functions renamed where the second one's fresh name is
  taken, by a Relax function or a PrimFunc: it takes the next free suffix (a mutant skipped
  one);
* the refusal of a call inside an external function through a variable named ``cls`` or
  ``T``, names the printer would rename: the message names the variable as it is named (a
  mutant printed it);
* a local function of no parameters of its own, sized or not, in the entry and in a Codegen
  function: it is passed the workspace exactly when it takes it (mutants checked the last
  parameter only of functions of more than one, or of any number, of parameters);
* the pass in a Sequential under a PassContext of opt_level 0, where it runs, and of -1,
  where it is skipped, as the C++ pass (registered at opt_level 0) is: mutants registered
  the stand-in at opt_level 1 or -1 (a pass called directly runs at any level).
"""

import sys
from pathlib import Path

import pytest
import tvm_ffi

import tvm
import tvm.testing
from tvm import relax
from tvm.relax.ir.instrument import WellFormedInstrument
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T

sys.path.insert(0, str(Path(__file__).resolve().parent))
import allocate_workspace_cases as cases


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


@cases.STALE
@pytest.mark.parametrize("chain", CHAINS)
def test_chain_whose_callers_sort_first_takes_the_workspace(chain):
    """Every function of a chain named caller first takes the workspace."""
    Before, Expected = CHAINS[chain]
    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


def beside_sized(neg_attrs):
    """(Before, Expected): the entry calls the sized ``relu`` and ``neg``, an external
    function of attributes ``neg_attrs`` that calls nothing."""

    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            with R.dataflow():
                y = Before.relu(x)
                z = Before.neg(y)
                R.output(z)
            return z

        @R.function(private=True)
        def neg(x: R.Tensor) -> R.Tensor:
            R.func_attr(neg_attrs)
            return R.negative(x)

        @R.function(private=True)
        def relu(x: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
            return R.nn.relu(x)

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor) -> R.Tensor:
            ws = R.builtin.alloc_tensor(R.shape([1024]), R.dtype("uint8"), R.prim_value(0))
            with R.dataflow():
                y = Expected.relu1(x, ws)
                z = Expected.neg(y)
                R.output(z)
            return z

        @R.function(private=True)
        def neg(x: R.Tensor) -> R.Tensor:
            R.func_attr(neg_attrs)
            return R.negative(x)

        @R.function(private=True)
        def relu1(x: R.Tensor, workspace: R.Tensor((1024,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(x)

    return Before, Expected


UNRELATED = {
    "codegen": beside_sized({"Codegen": "ext"}),
    "composite": beside_sized({"Composite": "ext.neg"}),
}


@cases.IN_DATAFLOW
@pytest.mark.parametrize("external", UNRELATED)
def test_external_function_calling_no_taker_keeps_its_signature(external):
    """An external function that calls nothing taking the workspace does not take it."""
    Before, Expected = UNRELATED[external]
    tvm.ir.assert_structural_equal(cases.allocate_workspace_at_entry(Before), Expected)


@I.ir_module
class OrdinaryFirst:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        a = R.negative(x)
        with R.dataflow():
            y = OrdinaryFirst.relu(a)
            R.output(y)
        return y

    @R.function(private=True)
    def relu(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 512})
        return R.nn.relu(x)


@I.ir_module
class OrdinaryFirstExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([512]), R.dtype("uint8"), R.prim_value(0))
        a = R.negative(x)
        with R.dataflow():
            y = OrdinaryFirstExpected.relu1(a, ws)
            R.output(y)
        return y

    @R.function(private=True)
    def relu1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu"})
        return R.nn.relu(x)


@I.ir_module
class OrdinaryAroundDataflow:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        a = R.negative(x)
        with R.dataflow():
            y = OrdinaryAroundDataflow.relu(a)
            R.output(y)
        z = R.negative(y)
        return z

    @R.function(private=True)
    def relu(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 512})
        return R.nn.relu(x)


@I.ir_module
class OrdinaryAroundDataflowExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([512]), R.dtype("uint8"), R.prim_value(0))
        a = R.negative(x)
        with R.dataflow():
            y = OrdinaryAroundDataflowExpected.relu1(a, ws)
            R.output(y)
        z = R.negative(y)
        return z

    @R.function(private=True)
    def relu1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu"})
        return R.nn.relu(x)


@I.ir_module
class DataflowFirst:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        with R.dataflow():
            y = DataflowFirst.relu(x)
            R.output(y)
        z = R.negative(y)
        return z

    @R.function(private=True)
    def relu(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 512})
        return R.nn.relu(x)


@I.ir_module
class DataflowFirstExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([512]), R.dtype("uint8"), R.prim_value(0))
        with R.dataflow():
            y = DataflowFirstExpected.relu1(x, ws)
            R.output(y)
        z = R.negative(y)
        return z

    @R.function(private=True)
    def relu1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu"})
        return R.nn.relu(x)


@I.ir_module
class DataflowFirstCallAfter:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        with R.dataflow():
            a = R.negative(x)
            R.output(a)
        y = DataflowFirstCallAfter.relu(a)
        return y

    @R.function(private=True)
    def relu(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 512})
        return R.nn.relu(x)


@I.ir_module
class DataflowFirstCallAfterExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([512]), R.dtype("uint8"), R.prim_value(0))
        with R.dataflow():
            a = R.negative(x)
            R.output(a)
        y = DataflowFirstCallAfterExpected.relu1(a, ws)
        return y

    @R.function(private=True)
    def relu1(x: R.Tensor, workspace: R.Tensor((512,), "uint8")) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu"})
        return R.nn.relu(x)


LAYOUTS = {
    "ordinary-dataflow": (OrdinaryFirst, OrdinaryFirstExpected),
    "ordinary-dataflow-ordinary": (OrdinaryAroundDataflow, OrdinaryAroundDataflowExpected),
    "dataflow-ordinary": (DataflowFirst, DataflowFirstExpected),
    "dataflow-ordinary-call": (DataflowFirstCallAfter, DataflowFirstCallAfterExpected),
}


@pytest.mark.parametrize(
    "layout",
    [
        pytest.param("ordinary-dataflow", marks=cases.IN_DATAFLOW),
        pytest.param("ordinary-dataflow-ordinary", marks=cases.IN_DATAFLOW),
        pytest.param("dataflow-ordinary", marks=cases.IN_DATAFLOW),
        pytest.param(
            "dataflow-ordinary-call",
            marks=pytest.mark.xfail(
                strict=True,
                raises=AssertionError,
                reason="the workspace allocated in the dataflow block is used after it "
                "(apache/tvm#20479)",
            ),
        ),
    ],
)
def test_allocation_joins_a_first_ordinary_block_else_precedes_the_first_block(layout):
    """The entry allocation is the first binding of the first block if that is ordinary."""
    Before, Expected = LAYOUTS[layout]
    tvm.ir.assert_structural_equal(cases.allocate_workspace_at_entry(Before), Expected)


# the output of cases.EqualPair where ``right1`` is taken: ``right`` becomes ``right2``
@I.ir_module
class EqualPairRight1TakenExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([256]), R.dtype("uint8"), R.prim_value(0))
        y = EqualPairRight1TakenExpected.left1(x, ws)
        z = EqualPairRight1TakenExpected.right2(y, ws)
        return z

    @R.function(private=True)
    def left1(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        return EqualPairRight1TakenExpected.inner1(x, workspace)

    @R.function(private=True)
    def right2(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        return EqualPairRight1TakenExpected.inner1(x, workspace)

    @R.function(private=True)
    def inner1(x: R.Tensor, workspace: R.Tensor((256,), "uint8")) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu"})
        return R.nn.relu(x)


@R.function(private=True)
def right1_relax(x: R.Tensor) -> R.Tensor:
    return R.negative(x)


@T.prim_func(private=True)
def right1_prim_func(x: T.Buffer((4,), "float32")):
    x[0] = T.float32(0)


def with_right1(mod, func):
    """``mod`` with ``func``, which nothing calls, added as ``right1``."""
    result = tvm.IRModule(dict(mod.functions_items()), attrs=mod.attrs)
    result["right1"] = func
    return result


NAME_TAKEN = {"relax": right1_relax, "prim_func": right1_prim_func}


@cases.STALE
@pytest.mark.parametrize("taken_by", NAME_TAKEN)
def test_equal_function_whose_fresh_name_is_taken_gets_the_next_suffix(taken_by):
    """The second of two equal renamed functions takes the next suffix not in the module."""
    Before = with_right1(cases.EqualPair, NAME_TAKEN[taken_by])
    Expected = with_right1(EqualPairRight1TakenExpected, NAME_TAKEN[taken_by])
    tvm.ir.assert_structural_equal(cases.allocate_workspace(Before), Expected)


@I.ir_module
class CalleeNamedCls:
    @R.function
    def outer(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        cls = CalleeNamedCls.inner

        @R.function
        def helper(y: R.Tensor) -> R.Tensor:
            return cls(y)

        return helper(x)

    @R.function
    def inner(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
        return R.nn.relu(x)


@I.ir_module
class CalleeNamedT:
    @R.function
    def outer(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})
        T = CalleeNamedT.inner

        @R.function
        def helper(y: R.Tensor) -> R.Tensor:
            return T(y)

        return helper(x)

    @R.function
    def inner(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 1024})
        return R.nn.relu(x)


CALLEE_NAMES = {"cls": CalleeNamedCls, "T": CalleeNamedT}


@cases.STALE
@pytest.mark.parametrize("name", CALLEE_NAMES)
def test_refusal_names_the_callee_variable_as_named(name):
    """The refusal of a call inside an external function names its variable as named."""
    with pytest.raises(ValueError, match=f"`helper` calls `{name}`, .* external function `outer`"):
        cases.allocate_workspace(CALLEE_NAMES[name])


@I.ir_module
class EntrySizedOfNoParameters:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        @R.function
        def zeros() -> R.Tensor:
            R.func_attr({"Composite": "ext.zeros", "WorkspaceSize": 64})
            return R.zeros(R.shape([4]), "float32")

        y = zeros()
        z = R.add(x, y)
        return z


@I.ir_module
class EntrySizedOfNoParametersExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([64]), R.dtype("uint8"), R.prim_value(0))

        @R.function
        def zeros(workspace: R.Tensor((64,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.zeros"})
            return R.zeros(R.shape([4]), "float32")

        y = zeros(ws)
        z = R.add(x, y)
        return z


@I.ir_module
class EntryPlainOfNoParameters:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        @R.function
        def relu(y: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 64})
            return R.nn.relu(y)

        @R.function
        def zeros() -> R.Tensor:
            return R.zeros(R.shape([4]), "float32")

        a = zeros()
        b = relu(R.add(x, a))
        return b


@I.ir_module
class EntryPlainOfNoParametersExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([64]), R.dtype("uint8"), R.prim_value(0))

        @R.function
        def relu(y: R.Tensor, workspace: R.Tensor((64,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(y)

        @R.function
        def zeros() -> R.Tensor:
            return R.zeros(R.shape([4]), "float32")

        a = zeros()
        b = relu(R.add(x, a), ws)
        return b


@I.ir_module
class CodegenSizedOfNoParameters:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        return CodegenSizedOfNoParameters.outer(x)

    @R.function
    def outer(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})

        @R.function
        def zeros() -> R.Tensor:
            R.func_attr({"Composite": "ext.zeros", "WorkspaceSize": 64})
            return R.zeros(R.shape([4]), "float32")

        y = zeros()
        z = R.add(x, y)
        return z


@I.ir_module
class CodegenSizedOfNoParametersExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([64]), R.dtype("uint8"), R.prim_value(0))
        return CodegenSizedOfNoParametersExpected.outer1(x, ws)

    @R.function
    def outer1(x: R.Tensor, workspace: R.Tensor((64,), "uint8")) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})

        @R.function
        def zeros(workspace_1: R.Tensor((64,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.zeros"})
            return R.zeros(R.shape([4]), "float32")

        y = zeros(workspace)
        z = R.add(x, y)
        return z


@I.ir_module
class CodegenPlainOfNoParameters:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        return CodegenPlainOfNoParameters.outer(x)

    @R.function
    def outer(x: R.Tensor) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})

        @R.function
        def relu(y: R.Tensor) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu", "WorkspaceSize": 64})
            return R.nn.relu(y)

        @R.function
        def zeros() -> R.Tensor:
            R.func_attr({"Composite": "ext.zeros"})
            return R.zeros(R.shape([4]), "float32")

        a = zeros()
        b = relu(R.add(x, a))
        return b


@I.ir_module
class CodegenPlainOfNoParametersExpected:
    @R.function
    def main(x: R.Tensor) -> R.Tensor:
        ws = R.builtin.alloc_tensor(R.shape([64]), R.dtype("uint8"), R.prim_value(0))
        return CodegenPlainOfNoParametersExpected.outer1(x, ws)

    @R.function
    def outer1(x: R.Tensor, workspace: R.Tensor((64,), "uint8")) -> R.Tensor:
        R.func_attr({"Codegen": "ext"})

        @R.function
        def relu(y: R.Tensor, workspace_1: R.Tensor((64,), "uint8")) -> R.Tensor:
            R.func_attr({"Composite": "ext.relu"})
            return R.nn.relu(y)

        @R.function
        def zeros() -> R.Tensor:
            R.func_attr({"Composite": "ext.zeros"})
            return R.zeros(R.shape([4]), "float32")

        a = zeros()
        b = relu(R.add(x, a), workspace)
        return b


NO_PARAMETERS = {
    "entry-sized": (EntrySizedOfNoParameters, EntrySizedOfNoParametersExpected),
    "entry-plain": (EntryPlainOfNoParameters, EntryPlainOfNoParametersExpected),
    "codegen-sized": (CodegenSizedOfNoParameters, CodegenSizedOfNoParametersExpected),
    "codegen-plain": (CodegenPlainOfNoParameters, CodegenPlainOfNoParametersExpected),
}


@pytest.mark.xfail(
    strict=True,
    raises=cases.WorkspaceSizeIgnoredError,
    reason="only module-level WorkspaceSize is read (apache/tvm#20479)",
)
@pytest.mark.parametrize("case", NO_PARAMETERS)
def test_local_function_of_no_parameters_takes_the_workspace_if_sized(case):
    """A local function of no parameters is passed the workspace exactly when it takes it."""
    Before, Expected = NO_PARAMETERS[case]
    After = cases.allocate_workspace(Before)
    if tvm_ffi.structural_equal(After, Before):
        raise cases.WorkspaceSizeIgnoredError(After.script())
    tvm.ir.assert_structural_equal(After, Expected)


@cases.STALE
@pytest.mark.parametrize("chain", CHAINS)
def test_pass_runs_at_opt_level_0(chain):
    """In a Sequential, the pass runs in a PassContext of opt_level 0."""
    Before, Expected = CHAINS[chain]
    seq = tvm.transform.Sequential([relax.transform.AllocateWorkspace()])
    with tvm.transform.PassContext(opt_level=0, instruments=[WellFormedInstrument()]):
        After = seq(Before)
    tvm.ir.assert_structural_equal(After, Expected)


@pytest.mark.parametrize("chain", CHAINS)
def test_pass_is_skipped_below_opt_level_0(chain):
    """In a Sequential, the pass is skipped in a PassContext of opt_level -1."""
    Before, _ = CHAINS[chain]
    seq = tvm.transform.Sequential([relax.transform.AllocateWorkspace()])
    with tvm.transform.PassContext(opt_level=-1, instruments=[WellFormedInstrument()]):
        After = seq(Before)
    tvm.ir.assert_structural_equal(After, Before)


if __name__ == "__main__":
    tvm.testing.main()
