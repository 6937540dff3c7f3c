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
"""Reproducer: LowerIket changes its input module in place, and stops after the first kernel.

    python bugs/lower_iket_inplace/probe.py          # evidence
    python bugs/lower_iket_inplace/probe.py --check  # exit 1 if the bug reproduces

Two layers. ``pass``: ``LowerIket()(Before)`` for two CUDA kernels with an IKET mark each, as
SplitHostDevice leaves them: the pass strips the marks through the module it was given
(``module->Update(...)``), so ``Before`` afterwards has lost them. Control: a module without
marks, which the pass does not change, must stay equal to its copy. ``compile``:
``tvm.compile`` (tirx pipeline, sm_90a) of a function of three kernels, each with a mark: the
released pass writes the function map it iterates and leaves marks the code generator cannot
lower ("Unresolved call tirx.cuda.iket_mark"). Control: the same function with one kernel.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import input_change, judge, needs_tvm, script

BUG = "lower_iket_inplace"

with needs_tvm(BUG):
    import tvm
    from tvm.backend.cuda import transforms as cuda_transforms
    from tvm.script import ir as I
    from tvm.script import tirx as T

SM90 = {"kind": "cuda", "arch": "sm_90a"}


def modules():
    """(two marked kernels as SplitHostDevice leaves them, the same without marks: the control)."""

    @I.ir_module
    class Marked:
        @T.prim_func
        def main_kernel(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target(SM90), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark("first")
            A[tx] = tx

        @T.prim_func
        def main_kernel_1(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target(SM90), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark("second")
            A[tx] = A[tx] + 1

    @I.ir_module
    class Unmarked:
        @T.prim_func
        def main_kernel(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target(SM90), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            A[tx] = tx

    return Marked, Unmarked


def kernels(count):
    """A function of ``count`` kernels over threadIdx.x, each with an IKET mark"""
    body = "".join(
        f'    for tx in T.thread_binding(32, thread="threadIdx.x"):\n'
        f'        T.cuda.iket.mark("k{k}")\n'
        f"        A[tx] = A[tx] + {k}\n"
        for k in range(count)
    )
    text = f'@T.prim_func(s_tir=True)\ndef main(A: T.Buffer((32,), "int32")):\n{body}'
    return tvm.script.from_source(text, {"T": T})


def compile_error(count):
    """None when tvm.compile (tirx pipeline) lowers ``kernels(count)``, else its first line."""
    try:
        tvm.compile(kernels(count), target=tvm.target.Target(SM90), tir_pipeline="tirx")
    except RuntimeError as err:  # the code generator's InternalError
        return (str(err).strip().splitlines() or [type(err).__name__])[0][:160]
    return None


def where_changed(mod):
    """None when LowerIket leaves ``mod`` as it was, else where it differs from its copy."""
    copy = mod.clone()
    cuda_transforms.LowerIket()(mod)
    try:
        tvm.ir.assert_structural_equal(mod, copy)
    except ValueError as err:
        return str(err).splitlines()[0].rstrip(":")
    return None


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    marked, unmarked = modules()
    in_place = judge(
        BUG,
        "pass",
        control=lambda: input_change(cuda_transforms.LowerIket, unmarked),
        case=lambda: where_changed(marked),
        fixed="LowerIket()(mod) leaves mod unchanged",
        untestable="even a module without marks changes: ",
        present="after LowerIket()(mod), mod differs: ",
    )
    stripped = judge(
        BUG,
        "compile",
        control=lambda: compile_error(1),
        case=lambda: compile_error(3),
        fixed="three marked kernels compile (tirx pipeline)",
        untestable="control, one kernel: ",
        present="three marked kernels: ",
    )
    return [in_place, stripped]


if __name__ == "__main__":
    script(BUG, probe)
