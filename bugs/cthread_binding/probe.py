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
"""Probe: a loop bound to "cthread" is lowered as a thread launch, not as a virtual thread.

    python bugs/cthread_binding/probe.py          # evidence
    python bugs/cthread_binding/probe.py --check  # exit 1 if the bug reproduces

runtime::ThreadScope takes "cthread" (and every tag that starts with "vthread") for a virtual
thread, and InjectVirtualThread lowers a ``virtual_thread`` attribute of that tag; but
s_tir's LowerOpaqueBlock and tirx's LowerTIRxOpaque give that attribute only to "vthread" and
"vthread.x/y/z", and TVMScript's ``T.launch_thread`` only to "vthread". A cthread becomes a
``thread_extent``: a launch dimension the code generators cannot name.

Two layers, each against the same program with "vthread" as the control (a thread binding of
extent 2 around a threadIdx.x loop of extent 4, ``A[c * 4 + t] = c * 4 + t + 1``):

* ``lowering``: the attribute LowerOpaqueBlock and LowerTIRxOpaque give the cthread loop, and
  the one ``T.launch_thread("cthread", 2)`` builds: PRESENT when one is ``thread_extent``;
  FIXED when each is ``virtual_thread`` or the tag is refused (ValueError, TypeError).
* ``codegen``: ``tvm.compile`` for CUDA and OpenCL, to source (no device needed): PRESENT when
  the CUDA source names ``cthread`` (declared nowhere) or the OpenCL source reads
  ``get_local_id(-1)`` (0 by OpenCL's definition: half the work is skipped); FIXED when
  neither does or the tag is refused with a ValueError or TypeError.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import first_line, judge, needs_tvm, script

BUG = "cthread_binding"
REFUSALS = (ValueError, TypeError)  # an error the user can act on: a fix too
CUDA = {"kind": "cuda", "arch": "sm_80"}

with needs_tvm(BUG, "tvm"):
    import tvm
    import tvm.s_tir.transform
    import tvm.tirx.transform
    from tvm.script import tirx as T


def bound_loop(tag):
    """A loop bound to ``tag`` (extent 2) around a threadIdx.x loop (extent 4)."""

    @T.prim_func
    def main(A: T.Buffer((8,), "int32")):
        for c in T.thread_binding(2, thread=tag):
            for t in T.thread_binding(4, thread="threadIdx.x"):
                A[c * 4 + t] = c * 4 + t + 1

    return main


def launched(tag):
    """The same program through ``T.launch_thread(tag, 2)``."""

    @T.prim_func
    def main(A: T.Buffer((8,), "int32")):
        c = T.launch_thread(tag, 2)
        t = T.launch_thread("threadIdx.x", 4)
        A[c * 4 + t] = c * 4 + t + 1

    return main


def attributes(tag):
    """{where: the attribute key of the outer thread launch}, or {where: "refused: ..."}."""
    found = {}
    for name, lower in (
        ("LowerOpaqueBlock", tvm.s_tir.transform.LowerOpaqueBlock),
        ("LowerTIRxOpaque", tvm.tirx.transform.LowerTIRxOpaque),
    ):
        try:
            found[name] = lower()(tvm.IRModule({"main": bound_loop(tag)}))["main"].body.attr_key
        except REFUSALS as err:
            found[name] = f"refused: {first_line(err)}"
    try:
        found["T.launch_thread"] = launched(tag).body.attr_key
    except REFUSALS as err:
        found["T.launch_thread"] = f"refused: {first_line(err)}"
    return found


def unnamed_threads(tag):
    """What the kernels of ``bound_loop(tag)`` read that names no thread: the CUDA source's
    identifier ``tag`` and the OpenCL source's ``get_local_id(-1)`` (a target whose compile
    refuses the tag with a user-facing error adds nothing)."""
    checks = (("cuda", CUDA, rf"\b{re.escape(tag)}\b"), ("opencl", "opencl", r"get_\w+_id\(-1\)"))
    found = []
    for kind, target, pattern in checks:
        try:
            lib = tvm.compile(bound_loop(tag), target=tvm.target.Target(target))
        except REFUSALS:
            continue
        source = lib.mod.imports[0].inspect_source()
        found += [f"{kind}: `{name}`" for name in sorted(set(re.findall(pattern, source)))]
    return found


def probe(run_gpu=False):
    del run_gpu  # compiled to source only

    def lowering_control():
        try:
            wrong = {k: v for k, v in attributes("vthread").items() if v != "virtual_thread"}
        except Exception as err:  # another TVM: a pass missing, or the program refused
            return first_line(err)
        return f"vthread is not a virtual_thread: {wrong}" if wrong else None

    def lowering_case():
        wrong = {k: v for k, v in attributes("cthread").items() if v == "thread_extent"}
        return "; ".join(f"{k} gives cthread a {v}" for k, v in wrong.items()) or None

    def codegen_control():
        try:
            found = unnamed_threads("vthread")
        except Exception as err:  # another TVM: no CUDA or OpenCL code generator
            return first_line(err)
        return f"vthread: {', '.join(found)}" if found else None

    def codegen_case():
        return ", ".join(unnamed_threads("cthread")) or None

    return [
        judge(
            BUG,
            "lowering",
            lowering_control,
            lowering_case,
            "cthread is lowered as a virtual_thread (or refused) by LowerOpaqueBlock, "
            "LowerTIRxOpaque and T.launch_thread",
            "control (vthread): ",
        ),
        judge(
            BUG,
            "codegen",
            codegen_control,
            codegen_case,
            "the cthread kernels read only declared thread indices (CUDA, OpenCL), or the tag "
            "is refused",
            "control (vthread): ",
            "thread indices that name no thread: ",
        ),
    ]


if __name__ == "__main__":
    script(BUG, probe)
