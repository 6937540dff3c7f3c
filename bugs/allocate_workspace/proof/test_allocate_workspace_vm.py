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
"""The report's module (apache/tvm#20479) after AllocateWorkspace, in the VM (proof only).

The report's symptom: the module builds, but constructing the VirtualMachine fails with
InternalError ("Cannot find ffi::Function inner"). After the fix main runs, gives
x + 1, and the renamed Composite function receives one uint8 workspace of WorkspaceSize
bytes: a VM instrument records the last argument of every call of ``inner1``. Control: the
same module whose ``outer`` is an ordinary function (the released pass rewrites its
references). No BYOC backend is involved: without RunCodegen, relax.build compiles Codegen
and Composite functions like any other Relax function.

test_module_with_renamed_callees_builds_and_runs is #20479's acceptance as the upstream file
held it before patch 0001 was cut to TVM's size: a Codegen function called twice, its private
Composite callee renamed, the values checked.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import tvm
import tvm.testing
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R

if str(Path(__file__).resolve().parents[3]) not in sys.path:  # `python FILE` from anywhere
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bugs.allocate_workspace.probe import report_module  # the probe's module, outer's attrs


@pytest.mark.parametrize(
    "outer_attrs",
    [
        pytest.param(
            {"Codegen": "my_backend"},
            marks=pytest.mark.xfail(
                strict=True,
                raises=tvm.error.InternalError,
                reason="the VM cannot find the renamed function's old GlobalVar (apache/tvm#20479)",
            ),
            id="codegen_caller",
        ),
        pytest.param({}, id="control_plain_caller"),
    ],
)
def test_report_module_runs_and_passes_the_workspace(outer_attrs):
    after = relax.transform.AllocateWorkspace()(report_module(outer_attrs))
    vm = relax.VirtualMachine(relax.build(after, target="llvm"), tvm.cpu())
    received = []

    def record(func, name, before_run, ret, *args):
        if before_run and name == "inner1":
            received.append((tuple(args[-1].shape), str(args[-1].dtype)))

    vm.set_instrument(record)
    x = np.arange(4, dtype="float32")
    tvm.testing.assert_allclose(vm["main"](tvm.runtime.tensor(x)).numpy(), x + 1)
    assert received == [((1024,), "uint8")]


def test_control_report_module_runs_without_the_pass():
    vm = relax.VirtualMachine(relax.build(report_module({"Codegen": "my_backend"})), tvm.cpu())
    x = np.arange(4, dtype="float32")
    tvm.testing.assert_allclose(vm["main"](tvm.runtime.tensor(x)).numpy(), x + 1)


@pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="the VM cannot find the renamed function's old GlobalVar (apache/tvm#20479)",
)
def test_module_with_renamed_callees_builds_and_runs():
    """apache/tvm#20479: the module AllocateWorkspace returns builds and runs in the VM."""

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return Module.outer(Module.outer(x))

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Codegen": "ext"})
            return Module.inner(x)

        @R.function(private=True)
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "ext.add", "WorkspaceSize": 64})
            return R.add(x, R.const(1, "float32"))

    ex = relax.build(relax.transform.AllocateWorkspace()(Module), target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    x = np.arange(4, dtype="float32")
    np.testing.assert_array_equal(vm["main"](tvm.runtime.tensor(x)).numpy(), x + 2)


if __name__ == "__main__":
    tvm.testing.main()
