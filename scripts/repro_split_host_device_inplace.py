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
"""Reproducer: SplitHostDevice changes its input module in place.

    python scripts/repro_split_host_device_inplace.py          # evidence
    python scripts/repro_split_host_device_inplace.py --check  # exit 1 if the bug reproduces

``After = tvm.tirx.transform.SplitHostDevice()(Before)`` for a cuda function with one kernel:
the pass writes its result through the module it was given (``mod->Update(...)``), so
``Before`` afterwards holds ``main_kernel`` and the rewritten ``main`` too. One layer, ``pass``:
``Before`` compared with a copy taken before the pass. Control: a module without kernels,
which the pass does not change, must stay equal to its copy.

Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line
reason when it cannot run or is given an unknown argument. ``probe(run_gpu)`` returns the
findings for scripts/check_tvm.py; ``input_change(make_pass, module)`` is shared with
repro_annotate_entry_func_inplace.py.
"""

import sys

try:
    import tvm
    import tvm.tirx.transform
    from tvm.script import ir as I
    from tvm.script import tirx as T
except Exception as err:  # no usable TVM: one line, exit 2
    print(f"repro_split_host_device_inplace: cannot import tvm/tirx: {err}", file=sys.stderr)
    raise SystemExit(2) from None

BUG = "split_host_device_inplace"


def modules():
    """(a cuda function with a kernel, the same on llvm without one: the control)."""

    @I.ir_module
    class WithKernel:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("cuda", host="llvm")})
            T.attr(T.target("cuda"), "target", 0)
            i = T.launch_thread("threadIdx.x", 8)
            A[i] = A[i] + T.float32(1)

    @I.ir_module
    class WithoutKernel:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("llvm")})
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    return WithKernel, WithoutKernel


def input_change(make_pass, module):
    """None when ``make_pass()(module)`` leaves ``module`` equal to a copy taken before, else
    one line saying how it changed."""
    copy = module.clone()
    names = sorted(g.name_hint for g in module.get_global_vars())
    make_pass()(module)
    try:
        tvm.ir.assert_structural_equal(module, copy)
    except ValueError:
        now = sorted(g.name_hint for g in module.get_global_vars())
        return f"the given module now holds {', '.join(now)} (was {', '.join(names)})"
    return None


def finding(bug, layer, status, evidence):
    return {"bug": bug, "layer": layer, "status": status, "evidence": evidence}


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    with_kernel, without_kernel = modules()
    control = input_change(tvm.tirx.transform.SplitHostDevice, without_kernel)
    if control is not None:
        evidence = f"even a module without kernels changes: {control}"
        return [finding(BUG, "pass", "untestable", evidence)]
    change = input_change(tvm.tirx.transform.SplitHostDevice, with_kernel)
    if change is not None:
        return [finding(BUG, "pass", "present", f"after SplitHostDevice()(mod): {change}")]
    return [finding(BUG, "pass", "fixed", "SplitHostDevice()(mod) leaves mod unchanged")]


def main(argv=None, name="repro_split_host_device_inplace", probe=probe):
    argv = sys.argv[1:] if argv is None else argv
    unknown = [a for a in argv if a != "--check"]
    if unknown:
        print(f"{name}: error: unknown argument(s) {' '.join(unknown)}", file=sys.stderr)
        return 2
    print("tvm", tvm.__version__)
    findings = probe()
    for f in findings:
        print(f"{f['layer']:<6} {f['status'].upper():<10} {f['evidence']}")
    if "--check" in argv and any(f["status"] == "present" for f in findings):
        return 1
    return 0


def run_main(name, main_func):
    """``main_func()`` as the script's exit status; an error of TVM's: one line, exit 2."""
    try:
        sys.exit(main_func())
    except Exception as err:  # a TVM this script cannot drive: one line, no traceback
        first = (str(err).strip().splitlines() or [""])[0]
        print(f"{name}: error: {type(err).__name__}: {first}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    run_main("repro_split_host_device_inplace", main)
