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
"""End to end: a module after AllocateWorkspace builds, loads into the VM and runs.

No BYOC backend is involved: without RunCodegen, relax.build compiles Codegen and
Composite functions like any other Relax function (apache/tvm#20479).
"""

import json
import signal
import subprocess
import sys

import numpy as np
import pytest

import tvm
import tvm.testing
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T

DANGLING = (
    "AllocateWorkspace leaves calls to the removed GlobalVar of a function it renamed, "
    "so the VM cannot find that function (apache/tvm#20479)"
)


# The report's shape: the entry function calls a Codegen function, which calls a
# module-level Composite function that asks for a workspace.
@I.ir_module
class Report:
    @T.prim_func(s_tir=True)
    def add_one(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.sblock("add_one"):
                vi = T.axis.spatial(4, i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Report
        with R.dataflow():
            y = cls.outer(x)
            R.output(y)
        return y

    @R.function
    def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"Codegen": "ext"})
        cls = Report
        with R.dataflow():
            y = cls.inner(x)
            R.output(y)
        return y

    @R.function
    def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"Composite": "ext.add_one", "Primitive": True, "WorkspaceSize": 1024})
        cls = Report
        with R.dataflow():
            y = R.call_tir(cls.add_one, (x,), out_ty=R.Tensor((4,), "float32"))
            R.output(y)
        return y


# The same module where the caller of the Composite function is an ordinary function.
@I.ir_module
class PlainCaller:
    @T.prim_func(s_tir=True)
    def add_one(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.sblock("add_one"):
                vi = T.axis.spatial(4, i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = PlainCaller
        with R.dataflow():
            y = cls.outer(x)
            R.output(y)
        return y

    @R.function
    def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = PlainCaller
        with R.dataflow():
            y = cls.inner(x)
            R.output(y)
        return y

    @R.function
    def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"Composite": "ext.add_one", "Primitive": True, "WorkspaceSize": 1024})
        cls = PlainCaller
        with R.dataflow():
            y = R.call_tir(cls.add_one, (x,), out_ty=R.Tensor((4,), "float32"))
            R.output(y)
        return y


MODULES = {"Report": Report, "PlainCaller": PlainCaller}


def _run_main(module_name, apply_pass, target):
    """Build the module (after AllocateWorkspace if asked), load it into the VM and run
    main on [0, 1, 2, 3]; return the output as a list."""
    mod = MODULES[module_name]
    if apply_pass:
        mod = relax.transform.AllocateWorkspace()(mod)
    device = tvm.cpu() if target == "llvm" else tvm.cuda()
    executable = relax.build(mod, target=target)
    vm = relax.VirtualMachine(executable, device)
    x = tvm.runtime.tensor(np.arange(4, dtype="float32"), device)
    return vm["main"](x).numpy().tolist()


def _child_main(argv):
    """Entry point of the child process: prints one JSON line, the result or the error."""
    try:
        print(json.dumps({"result": _run_main(argv[0], argv[1] == "1", argv[2])}))
    except Exception as err:
        print(json.dumps({"error": type(err).__name__, "message": str(err)}))


_CHILD = (
    "import importlib.util, sys\n"
    "spec = importlib.util.spec_from_file_location('vm_allocate_workspace', sys.argv[1])\n"
    "module = importlib.util.module_from_spec(spec)\n"
    "sys.modules[spec.name] = module\n"
    "spec.loader.exec_module(module)\n"
    "module._child_main(sys.argv[2:])\n"
)


def _run_main_in_child(module_name, apply_pass, target):
    """_run_main in a child process: a device fault must not take pytest down with it."""
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, __file__, module_name, str(int(apply_pass)), target],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if proc.returncode < 0:
        raise AssertionError(
            f"child died of {signal.Signals(-proc.returncode).name}: {proc.stderr[-2000:]}"
        )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and lines, f"child failed: {proc.stderr[-2000:]}"
    answer = json.loads(lines[-1])
    if "error" in answer:
        if answer["error"] == "InternalError":
            raise tvm.error.InternalError(answer["message"])
        raise AssertionError(f"child raised {answer['error']}: {answer['message']}")
    return answer["result"]


def check_vm_adds_one(module_name, apply_pass, target):
    run = _run_main if target == "llvm" else _run_main_in_child
    out = run(module_name, apply_pass, target)
    tvm.testing.assert_allclose(np.array(out), np.arange(4, dtype="float32") + 1)


on_targets = pytest.mark.parametrize(
    "target",
    [
        "llvm",
        pytest.param(
            "cuda",
            marks=[
                pytest.mark.gpu,
                pytest.mark.skipif(not tvm.testing.env.has_cuda(), reason="need cuda"),
            ],
        ),
    ],
)


@on_targets
def test_report_module_without_pass(target):
    """Control: the report's module runs before AllocateWorkspace."""
    check_vm_adds_one("Report", False, target)


@on_targets
def test_plain_caller_after_pass(target):
    """Control: the renamed function's caller is an ordinary function, which the pass
    rewrites."""
    check_vm_adds_one("PlainCaller", True, target)


@on_targets
@pytest.mark.xfail(strict=True, raises=tvm.error.InternalError, reason=DANGLING)
def test_report_module_after_pass(target):
    check_vm_adds_one("Report", True, target)


if __name__ == "__main__":
    tvm.testing.main()
