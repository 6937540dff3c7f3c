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
``Before`` (repro.py's own) compared with a copy taken before the pass. Control: a module
without kernels, which the pass does not change, must stay equal to its copy.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import input_change, judge, needs_tvm, repro_definition, script

BUG = "split_host_device_inplace"

with needs_tvm(BUG):
    import tvm
    import tvm.tirx.transform
    from tvm.script import ir as I
    from tvm.script import tirx as T


def with_kernel():
    """A cuda function with one kernel: the module repro.py gives the pass (a fresh one per
    call, since the pass writes into it)."""
    return repro_definition(__file__, "Before")


def without_kernel():
    """The same on llvm without a kernel, which the pass does not change: the control."""

    @I.ir_module
    class WithoutKernel:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            T.func_attr({"target": T.target("llvm")})
            for i in range(8):
                A[i] = A[i] + T.float32(1)

    return WithoutKernel


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    split = tvm.tirx.transform.SplitHostDevice
    return [
        judge(
            BUG,
            "pass",
            control=lambda: input_change(split, without_kernel()),
            case=lambda: input_change(split, with_kernel()),
            fixed="SplitHostDevice()(mod) leaves mod unchanged",
            untestable="even a module without kernels changes: ",
            present="after SplitHostDevice()(mod): ",
        )
    ]


if __name__ == "__main__":
    script(BUG, probe)
