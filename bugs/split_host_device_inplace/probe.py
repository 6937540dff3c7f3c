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

    python bugs/split_host_device_inplace/probe.py          # evidence
    python bugs/split_host_device_inplace/probe.py --check  # exit 1 if the bug reproduces

``After = tvm.tirx.transform.SplitHostDevice()(Before)`` for a cuda function with one kernel:
the pass writes its result through the module it was given (``mod->Update(...)``), so
``Before`` afterwards holds ``main_kernel`` and the rewritten ``main`` too. One layer, ``pass``:
``Before`` compared with a copy taken before the pass. Control: a module without kernels,
which the pass does not change, must stay equal to its copy.

Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line
reason when it cannot run or is given an unknown argument. ``probe(run_gpu)`` returns the
findings for scripts/check_tvm.py.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

try:
    from probe_common import finding, input_change, main, run_main

    import tvm
    import tvm.tirx.transform
    from tvm.script import ir as I
    from tvm.script import tirx as T
except Exception as err:  # no usable TVM: one line, exit 2
    print(f"split_host_device_inplace/probe.py: cannot import tvm/tirx: {err}", file=sys.stderr)
    raise SystemExit(2) from None

BUG = "split_host_device_inplace"
NAME = "split_host_device_inplace/probe.py"


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


if __name__ == "__main__":
    run_main(NAME, lambda: main(None, NAME, probe))
