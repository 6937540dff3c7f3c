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
"""Reproducer: AllocateWorkspace leaves a dangling GlobalVar (apache/tvm#20479).

    python bugs/allocate_workspace/probe.py            # evidence, CPU only
    python bugs/allocate_workspace/probe.py --check    # exit 1 if it reproduces
    python bugs/allocate_workspace/probe.py --run-gpu  # also the VM on cuda

A Codegen function ``outer`` calls a module-level Composite function ``inner`` that asks for
a workspace; ``main`` calls ``outer``. No BYOC backend is needed.

Layers probed:
* pass output  relax.transform.AllocateWorkspace on that module: every GlobalVar referenced
               must be defined (the bug: ``outer`` still calls the removed ``inner``) and
               relax.analysis.well_formed must hold.
* VM (llvm)    relax.build + relax.VirtualMachine + main([0, 1, 2, 3]) after the pass must
               give [1, 2, 3, 4]; the same module before the pass is the control.
* VM (cuda)    (--run-gpu) the same on a CUDA device.

Exit codes: 0 after printing; 1 with --check when the bug reproduces; 2 with a one-line
reason when it cannot run, when no layer could be tested, or on an unknown argument.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
import probe_common as common

BUG = "allocate_workspace"
PROG = f"{BUG}/probe.py"

with common.needs_tvm(BUG, "tvm"):
    import numpy as np

    import tvm
    from tvm import relax
    from tvm.script import ir as I
    from tvm.script import relax as R
    from tvm.script import tirx as T


def report_module(outer_attrs=None):
    """The report's shape, written for this script: ``main`` calls ``outer`` (attributes
    ``outer_attrs``, a Codegen function by default), which calls the sized Composite ``inner``."""
    if outer_attrs is None:
        outer_attrs = {"Codegen": "my_backend"}

    @I.ir_module
    class Module:
        @T.prim_func(s_tir=True)
        def add_one(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
            for i in range(4):
                with T.sblock("add_one"):
                    vi = T.axis.spatial(4, i)
                    y[vi] = x[vi] + T.float32(1)

        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            cls = Module
            with R.dataflow():
                y = cls.outer(x)
                R.output(y)
            return y

        @R.function
        def outer(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr(outer_attrs)
            cls = Module
            with R.dataflow():
                y = cls.inner(x)
                R.output(y)
            return y

        @R.function
        def inner(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.func_attr({"Composite": "my_backend.op", "Primitive": True, "WorkspaceSize": 1024})
            cls = Module
            with R.dataflow():
                y = R.call_tir(cls.add_one, (x,), out_ty=R.Tensor((4,), "float32"))
                R.output(y)
            return y

    return Module


def _row(layer, status, evidence):
    return common.finding(BUG, layer, status, evidence)


def global_var_names(mod):
    return sorted(gv.name_hint for gv in mod.get_global_vars())


def dangling_references(mod):
    """(function, GlobalVar name) for every reference to a GlobalVar the module lacks."""
    defined = {gv.name_hint: gv for gv in mod.get_global_vars()}
    found = []
    for gvar, func in mod.functions_items():
        if not isinstance(func, relax.Function):
            continue
        nodes = []
        relax.analysis.post_order_visit(func, nodes.append)
        for node in nodes:
            if isinstance(node, tvm.ir.GlobalVar):
                known = defined.get(node.name_hint)
                if known is None or not known.same_as(node):
                    found.append((gvar.name_hint, node.name_hint))
    return sorted(set(found))


def well_formed_verdict(mod):
    """None when well formed, else the first violation."""
    try:
        relax.analysis.well_formed(mod)
    except Exception as err:
        return common.first_line(err)
    return None


def apply_pass():
    before = report_module()
    return before, relax.transform.AllocateWorkspace()(before)


def probe_pass_output():
    try:
        _, after = apply_pass()
    except Exception as err:
        return _row(
            "pass output", "untestable", f"AllocateWorkspace raised {common.first_line(err)}"
        )
    dangling = dangling_references(after)
    verdict = well_formed_verdict(after)
    if dangling or verdict:
        refs = ", ".join(f"{holder} -> {name}" for holder, name in dangling) or "none"
        return _row(
            "pass output",
            "present",
            f"dangling references: {refs}; well_formed: {verdict or 'holds'}",
        )
    return _row(
        "pass output",
        "fixed",
        f"well_formed holds, no dangling reference; global vars {global_var_names(after)}",
    )


def run_vm(mod, target):
    """relax.build + VirtualMachine + main([0, 1, 2, 3]); returns the output list."""
    device = tvm.cpu() if target == "llvm" else tvm.cuda()
    executable = relax.build(mod, target=target)
    vm = relax.VirtualMachine(executable, device)
    x = tvm.runtime.tensor(np.arange(4, dtype="float32"), device)
    return vm["main"](x).numpy().tolist()


def probe_vm(target):
    layer = f"VM ({target})"
    if target == "llvm" and not tvm.runtime.enabled("llvm"):
        return _row(layer, "untestable", "this TVM has no LLVM")
    if target == "cuda" and not tvm.cuda().exist:
        return _row(layer, "untestable", "no CUDA device")
    expected = [1.0, 2.0, 3.0, 4.0]
    try:
        before, after = apply_pass()
        control = run_vm(before, target)
    except Exception as err:
        return _row(
            layer, "untestable", f"control (before the pass) failed: {common.first_line(err)}"
        )
    if control != expected:
        return _row(layer, "untestable", f"control (before the pass) gave {control}")
    try:
        out = run_vm(after, target)
    except Exception as err:
        return _row(layer, "present", f"after the pass: {common.first_line(err)}")
    if out != expected:
        return _row(layer, "present", f"after the pass main gives {out}, expected {expected}")
    return _row(layer, "fixed", f"after the pass main gives {out}")


def probe(run_gpu: bool = False) -> list[dict]:
    rows = [probe_pass_output(), probe_vm("llvm")]
    if run_gpu:
        rows.append(probe_vm("cuda"))
    return rows


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    status = common.bad_arguments(argv, PROG, ("--check", "--run-gpu"))
    if status is not None:
        return status
    print(f"TVM {tvm.__version__} at {tvm.__file__}")
    try:
        before, after = apply_pass()
    except Exception as err:
        print(f"{PROG}: cannot run: {common.first_line(err)}", file=sys.stderr)
        return 2
    print(f"global vars before AllocateWorkspace: {global_var_names(before)}")
    print(f"global vars after AllocateWorkspace:  {global_var_names(after)}")
    dangling = dangling_references(after)
    for holder, name in dangling:
        print(f"dangling reference: function {holder} refers to {name}, not in the module")
    if not dangling:
        print("dangling references: none")
    print(f"well_formed after the pass: {well_formed_verdict(after) or 'holds'}")

    rows = probe(run_gpu="--run-gpu" in argv)
    common.report(rows, "[{status:>10}] {layer}: {evidence}")
    if all(row["status"] == "untestable" for row in rows):
        print(f"{PROG}: nothing could be tested", file=sys.stderr)
        return 2
    return common.exit_status(argv, rows)


if __name__ == "__main__":
    common.run_main(PROG, main)
