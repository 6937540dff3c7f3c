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
"""Probe: WebGPU stops at an internal error on a view a kernel declares at an address.

    python bugs/webgpu_view_at_address/probe.py          # evidence
    python bugs/webgpu_view_at_address/probe.py --check  # exit 1 if the bug reproduces

Inside a kernel, ``A_k = T.decl_buffer((1,), data=T.address_of(A[0]))`` over a parameter and
``B[0] = A_k[0]``. Layer ``codegen``: PRESENT when the WebGPU code generator stops at an
internal error (apache/tvm 0.27: the TypeError "Cannot treat type `ir.PointerType` as type
`ir.PrimType`"; an ICHECK elsewhere); FIXED when it compiles or refuses the view with a
user-facing message. Control: the same function compiles for CUDA (source only).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, last_line, needs_tvm, script

BUG = "webgpu_view_at_address"

with needs_tvm(BUG, "tvm"):
    import tvm
    from tvm.script import tirx as T

INTERNAL = ("Cannot treat type", "Check failed")


@T.prim_func
def view_in_kernel(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A_k = T.decl_buffer((1,), "float32", data=T.address_of(A[0]))
        B[0] = A_k[0]


def probe(run_gpu=False):
    del run_gpu  # compiled to source only
    try:
        tvm.compile(view_in_kernel, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))
    except Exception as err:  # the control must compile
        evidence = f"the view does not compile for cuda either: {type(err).__name__}"
        return [finding(BUG, "codegen", "untestable", evidence)]
    try:
        tvm.compile(view_in_kernel, target="webgpu")
    except Exception as err:  # internal or user-facing: the finding
        last = (str(err).strip().splitlines() or [""])[-1]
        if isinstance(err, tvm.error.InternalError) or any(s in last for s in INTERNAL):
            return [finding(BUG, "codegen", "present", f"webgpu: {last_line(err)}")]
        return [finding(BUG, "codegen", "fixed", f"webgpu refuses the view: {last}")]
    return [finding(BUG, "codegen", "fixed", "the view compiles for webgpu")]


if __name__ == "__main__":
    script(BUG, probe)
