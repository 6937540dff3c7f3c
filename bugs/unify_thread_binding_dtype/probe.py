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
"""Reproducer: UnifyThreadBinding gives a thread loop of an int64 extent an int32 IterVar.

    python bugs/unify_thread_binding_dtype/probe.py          # evidence
    python bugs/unify_thread_binding_dtype/probe.py --check  # exit 1 if the bug reproduces

s_tir.transform.UnifyThreadBinding rewrites every thread binding of a kernel into a
``T.thread_binding`` loop whose loop var takes the extent's dtype, and gives the loop's IterVar
a var built with no dtype (int32). The printer writes only the loop and its thread tag; the
parser gives the IterVar the loop var's dtype. One layer, ``round trip``: the pass's output on
a virtual thread and on a threadIdx.x of int64 extent, each against itself after print ->
parse. Control: the same virtual thread with an int32 extent must round-trip.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import first_line, judge, needs_tvm, round_trip_error, script

BUG = "unify_thread_binding_dtype"

with needs_tvm(BUG, "tvm"):
    import tvm
    import tvm.s_tir.transform
    from tvm.script import tirx as T


def vthread(dtype):
    """A virtual thread of extent 2 (a constant of ``dtype``) around a threadIdx.x loop."""

    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        with T.launch_thread("vthread", tvm.tirx.const(2, dtype)) as v:
            for i in T.thread_binding(8, thread="threadIdx.x"):
                A[v * 8 + i] = T.float32(1.0)

    return main


def thread_x(dtype):
    """A threadIdx.x loop of extent 8 (a constant of ``dtype``)."""

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        for i in T.thread_binding(tvm.tirx.const(8, dtype), thread="threadIdx.x"):
            A[i] = T.float32(1.0)

    return main


def unified_error(func):
    """None when UnifyThreadBinding's output for ``func`` survives print -> parse, else one
    line: the thread loop's var and IterVar var types, and where the round trip differs."""
    mod = tvm.s_tir.transform.UnifyThreadBinding()(tvm.IRModule({"main": func}))
    error = round_trip_error(mod)
    if error is None:
        return None
    loop = mod["main"].body
    where = error.split(" at ")[-1].rstrip(":")
    return (
        f"the {loop.thread_binding.thread_tag} loop's var is {loop.loop_var.ty}, its IterVar's "
        f"var {loop.thread_binding.var.ty}; print -> parse differs at {where}"
    )


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device

    def control():
        try:
            return unified_error(vthread("int32"))
        except Exception as err:  # another TVM: no s_tir, or the pass refuses the program
            return first_line(err)

    def case():
        found = []
        for name, func in (("vthread", vthread("int64")), ("threadIdx.x", thread_x("int64"))):
            error = unified_error(func)
            if error is not None:
                found.append(f"int64 {name}: {error}")
        return "; ".join(found) or None

    fixed = "UnifyThreadBinding's output for int64 thread extents survives print -> parse"
    return [judge(BUG, "round trip", control, case, fixed, "control (int32 vthread): ")]


if __name__ == "__main__":
    script(BUG, probe)
