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
"""Reproducer: AnnotateEntryFunc changes its input module in place.

    python bugs/annotate_entry_func_inplace/probe.py          # evidence
    python bugs/annotate_entry_func_inplace/probe.py --check  # exit 1 if the bug reproduces

``After = tvm.tirx.transform.AnnotateEntryFunc()(Before)`` for a module of one PrimFunc: the
pass sets ``tirx.is_entry_func`` through the module it was given (``mod->Update(...)``), so
``Before``'s function carries the attribute too. One layer, ``pass``: ``Before`` compared with
a copy taken before the pass. Control: a module of two public functions, where no entry can
be inferred and nothing is written, must stay equal to its copy.

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
    print(f"annotate_entry_func_inplace/probe.py: cannot import tvm/tirx: {err}", file=sys.stderr)
    raise SystemExit(2) from None

BUG = "annotate_entry_func_inplace"
NAME = "annotate_entry_func_inplace/probe.py"


def modules():
    """(one function: the entry is inferred; two public functions: none is, the control)."""

    @I.ir_module
    class One:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            for i in range(8):
                A[i] = T.float32(0)

    @I.ir_module
    class TwoPublic:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            for i in range(8):
                A[i] = T.float32(0)

        @T.prim_func(s_tir=True)
        def other(A: T.Buffer(8, "float32")):
            for i in range(8):
                A[i] = T.float32(1)

    return One, TwoPublic


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    one, two_public = modules()
    make = tvm.tirx.transform.AnnotateEntryFunc
    control = input_change(make, two_public)
    if control is not None:
        evidence = f"even a module without an inferable entry changes: {control}"
        return [finding(BUG, "pass", "untestable", evidence)]
    copy = one.clone()
    if input_change(make, one) is not None:
        attrs = dict(one["main"].attrs or {})
        evidence = (
            "after AnnotateEntryFunc()(mod), mod's main has tirx.is_entry_func="
            f"{attrs.get('tirx.is_entry_func')} (before: {dict(copy['main'].attrs or {})})"
        )
        return [finding(BUG, "pass", "present", evidence)]
    return [finding(BUG, "pass", "fixed", "AnnotateEntryFunc()(mod) leaves mod unchanged")]


if __name__ == "__main__":
    run_main(NAME, lambda: main(None, NAME, probe))
