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
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import input_change, judge, needs_tvm, script

BUG = "annotate_entry_func_inplace"

with needs_tvm(BUG):
    import tvm
    import tvm.tirx.transform
    from tvm.script import ir as I
    from tvm.script import tirx as T


def one_function():
    """A module of one PrimFunc: the pass infers it is the entry."""

    @I.ir_module
    class One:
        @T.prim_func(s_tir=True)
        def main(A: T.Buffer(8, "float32")):
            for i in range(8):
                A[i] = T.float32(0)

    return One


def two_public():
    """Two public functions: no entry is inferred and nothing is written (the control)."""
    main = one_function()["main"]
    return tvm.IRModule({"main": main, "other": main.with_attr("global_symbol", "other")})


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    one = one_function()
    annotate = tvm.tirx.transform.AnnotateEntryFunc
    before = dict(one["main"].attrs or {})

    def entry_attribute():
        if input_change(annotate, one) is None:
            return None
        now = dict(one["main"].attrs or {}).get("tirx.is_entry_func")
        return f"mod's main has tirx.is_entry_func={now} (before: {before})"

    return [
        judge(
            BUG,
            "pass",
            control=lambda: input_change(annotate, two_public()),
            case=entry_attribute,
            fixed="AnnotateEntryFunc()(mod) leaves mod unchanged",
            untestable="even a module without an inferable entry changes: ",
            present="after AnnotateEntryFunc()(mod), ",
        )
    ]


if __name__ == "__main__":
    script(BUG, probe)
