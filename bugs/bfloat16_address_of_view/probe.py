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
"""Reproducer: BF16ComputeLegalize moves a bfloat16 buffer to float32 while a view declared at
the address of one of its elements still reads bfloat16.

    python bugs/bfloat16_address_of_view/probe.py          # evidence
    python bugs/bfloat16_address_of_view/probe.py --check  # exit 1 if the bug reproduces

``v = T.alloc_buffer((1,), "bfloat16")``, ``v[0] = 2.0``, a view
``w = T.decl_buffer((1,), "bfloat16", data=T.address_of(v[0]))`` and ``o[0] = w[0]``, for
llvm (no bfloat16 arithmetic). Layers: ``pass`` (BF16ComputeLegalize alone: the element type
of the allocation and of the view at its address; float32 under a bfloat16 view = present) and
``run`` (the compiled function on the CPU: ``o[0]`` must be 2.0). Control: the same view
declared at ``v.data`` must read 2.0 (the pass leaves a buffer whose pointer is used as it is).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, judge, needs_tvm, repro_definition, script

BUG = "bfloat16_address_of_view"

with needs_tvm(BUG):
    import tvm_ffi

    import tvm
    from tvm.script import tirx as T

VIEWS = {"data": lambda v: v.data, "address_of": lambda v: T.address_of(v[0])}


def function(view):
    """``o[0] = w[0]``, ``w`` a bfloat16 view of the bfloat16 buffer ``v`` (``v[0] = 2``):
    repro.py's function of the view's address."""
    return repro_definition(__file__, "function")(VIEWS[view])


def view_types():
    """[(the viewed buffer's element type, the view's)] after BF16ComputeLegalize, for each view
    declared at the address of a buffer element."""
    func = function("address_of").with_attr("target", tvm.target.Target("llvm"))
    body = tvm.tirx.transform.BF16ComputeLegalize()(tvm.IRModule({"main": func}))["main"].body
    address_of = tvm.ir.Op.get("tirx.address_of")
    pairs = []

    def visit(node):
        data = getattr(node, "data", None) if type(node).__name__ == "DeclBuffer" else None
        if type(data).__name__ == "Call" and data.op.same_as(address_of):
            load = data.args[0]  # its buffer: ``buffer`` on main, ``source`` on 0.27
            viewed = getattr(load, "buffer", None) or load.source
            pairs.append((str(viewed.dtype), str(node.buffer.dtype)))

    tvm_ffi.structural_walk(body, visit, order="pre")
    return pairs


def read_back(view):
    """``o[0]`` after the function with ``view`` ran on the CPU."""
    o = tvm.runtime.empty((1,), "bfloat16")
    tvm.compile(function(view), target="llvm")(o)
    return float(o.numpy()[0])


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    pairs = view_types()
    if not pairs:
        findings = [finding(BUG, "pass", "untestable", "no view at an element's address left")]
    elif any(viewed != view for viewed, view in pairs):
        evidence = ", ".join(f"a {view} view of a {viewed} buffer" for viewed, view in pairs)
        findings = [finding(BUG, "pass", "present", f"BF16ComputeLegalize leaves {evidence}")]
    else:
        evidence = "the buffer keeps the element type of its view at address_of"
        findings = [finding(BUG, "pass", "fixed", evidence)]

    def reads(view, at, want):
        got = read_back(view)
        return None if got == 2.0 else f"the view at {at} reads {got}{want}"

    run = judge(
        BUG,
        "run",
        control=lambda: reads("data", "v.data", ", not 2.0"),
        case=lambda: reads("address_of", "T.address_of(v[0])", " where v[0] = 2.0"),
        fixed="llvm: both views read 2.0",
        untestable="control: ",
        present="llvm: ",
    )
    return [*findings, run]


if __name__ == "__main__":
    script(BUG, probe)
