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
"""Probe: StorageRewrite drops the annotations of the allocations it rewrites.

    python bugs/storage_rewrite_annotations/probe.py          # evidence
    python bugs/storage_rewrite_annotations/probe.py --check  # exit 1 if the bug reproduces

``B = T.alloc_buffer((4,), annotations={"disable_lower_builtin": True})`` in a CUDA functions
host code, written and read by two kernels. Layers: ``pass`` (StorageRewrite alone: PRESENT
when the rewritten AllocBuffer has lost the annotation) and ``compile`` (``tvm.compile``:
PRESENT when LowerTVMBuiltin allocates B with ``TVMBackendAllocWorkspace`` although the
annotation asks it not to lower the allocation). Control for ``compile``: with
``tirx.disable_storage_rewrite`` the annotation reaches LowerTVMBuiltin and no workspace is
allocated.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, needs_tvm, script

BUG = "storage_rewrite_annotations"

with needs_tvm(BUG, "tvm"):
    import tvm_ffi

    import tvm
    from tvm.script import tirx as T

ANNOTATIONS = {"disable_lower_builtin": True}


@T.prim_func
def host_buffer(A: T.Buffer((4,), "float32")):
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"})})
    B = T.alloc_buffer((4,), "float32", annotations={"disable_lower_builtin": True})
    for i in T.thread_binding(4, thread="threadIdx.x"):
        B[i] = A[i]
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = B[i] * T.float32(2)


def allocations(stmt):
    """The annotations of every AllocBuffer under ``stmt``."""
    found = []
    tvm_ffi.structural_walk(
        stmt,
        lambda n: found.append(dict(n.annotations))
        if isinstance(n, tvm.tirx.AllocBuffer)
        else None,
    )
    return found


def workspaces(config):
    """How many TVMBackendAllocWorkspace calls LowerTVMBuiltin wrote under ``config``."""
    calls = []

    def visit(node):
        if getattr(getattr(node, "op", None), "name", None) == "tirx.TVMBackendAllocWorkspace":
            calls.append(node)

    @tvm.instrument.pass_instrument
    class Workspaces:
        def run_after_pass(self, mod, info):
            if info.name == "tirx.LowerTVMBuiltin":
                for func in mod.functions.values():
                    tvm_ffi.structural_walk(func.body, visit)

    with tvm.transform.PassContext(config=config, instruments=[Workspaces()]):
        tvm.compile(host_buffer)
    return len(calls)


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    rewritten = tvm.tirx.transform.StorageRewrite()(tvm.IRModule({"main": host_buffer}))
    after = allocations(rewritten["main"].body)
    if after and all(ANNOTATIONS.items() <= a.items() for a in after):
        rows = [finding(BUG, "pass", "fixed", f"the rewritten allocation keeps {after}")]
    else:
        rows = [
            finding(BUG, "pass", "present", f"after StorageRewrite the allocations carry {after}")
        ]
    if workspaces({"tirx.disable_storage_rewrite": True}):
        evidence = "even without StorageRewrite LowerTVMBuiltin allocates a workspace"
        return [*rows, finding(BUG, "compile", "untestable", evidence)]
    count = workspaces({})
    if count:
        evidence = (
            f"tvm.compile allocates the annotated buffer with TVMBackendAllocWorkspace ({count})"
        )
        return [*rows, finding(BUG, "compile", "present", evidence)]
    return [
        *rows,
        finding(BUG, "compile", "fixed", "the annotated buffer is left to the code generator"),
    ]


if __name__ == "__main__":
    script(BUG, probe)
