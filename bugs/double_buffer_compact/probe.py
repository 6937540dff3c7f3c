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
"""Probe: a double-buffered kernel stops InjectDoubleBuffer at an internal check in tvm.compile.

    python bugs/double_buffer_compact/probe.py          # evidence
    python bugs/double_buffer_compact/probe.py --check  # exit 1 if the bug reproduces

The kernel of TVM's own ``test_double_buffer`` (a shared buffer under
``T.attr(B.data, "double_buffer_scope", 1)`` in a loop), compiled for CUDA (source only)
through the s_tir pipeline. Layers: ``pass`` (CompactBufferAllocation alone: PRESENT when the
``double_buffer_scope`` attribute still names the buffer the pass replaced) and ``compile``
(PRESENT when ``tvm.compile`` stops at "Check failed: (stride.defined()) is false").
Control: in the input, the attribute names the allocated buffer.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, last_line, needs_tvm, repro_definition, script

BUG = "double_buffer_compact"

with needs_tvm(BUG, "tvm"):
    import tvm_ffi

    import tvm

    # the program of repro.py
    double_buffered = repro_definition(__file__, "main")


def nodes(func, kind):
    found = []
    tvm_ffi.structural_walk(func.body, lambda n: found.append(n) if isinstance(n, kind) else None)
    return found


def scope_matches_allocation(func):
    """Whether the double_buffer_scope attribute names the data of an allocated buffer."""
    allocated = [a.buffer for a in nodes(func, tvm.tirx.AllocBuffer)]
    scopes = [a.node for a in nodes(func, tvm.tirx.AttrStmt) if a.attr_key == "double_buffer_scope"]
    scopes = [s.args[0] if isinstance(s, tvm.ir.Call) else s for s in scopes]  # `B.data`: B
    return bool(scopes) and all(any(s.same_as(b) for b in allocated) for s in scopes)


def probe(run_gpu=False):
    del run_gpu  # compiled to source only
    mod = tvm.IRModule({"main": double_buffered})
    if not scope_matches_allocation(mod["main"]):
        return [finding(BUG, "pass", "untestable", "the input's scope names no allocation")]
    compacted = tvm.s_tir.transform.CompactBufferAllocation()(mod)["main"]
    if scope_matches_allocation(compacted):
        rows = [finding(BUG, "pass", "fixed", "the scope names the compacted allocation")]
    else:
        evidence = (
            "after CompactBufferAllocation double_buffer_scope names a buffer no longer allocated"
        )
        rows = [finding(BUG, "pass", "present", evidence)]
    try:
        tvm.compile(double_buffered, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))
    except Exception as err:  # the internal check, or another error: reported
        status = "present" if "stride.defined()" in last_line(err) else "untestable"
        return [*rows, finding(BUG, "compile", status, last_line(err))]
    return [*rows, finding(BUG, "compile", "fixed", "the double-buffered kernel compiles")]


if __name__ == "__main__":
    script(BUG, probe)
