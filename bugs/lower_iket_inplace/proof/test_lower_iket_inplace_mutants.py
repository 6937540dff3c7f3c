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
"""LowerIket numbers the events of an IKET-enabled module over all its kernels (proof only).

Mutants of bugs/lower_iket_inplace/reference_fix.py (scripts/mutants.py) that send an
IKET-enabled module down the stripping branch's path (each function lowered alone, in a
module of its own) survived every other test: those check that an enabled module is left
unchanged, not what the pass makes of it. Lowered alone, each kernel's first mark becomes
official event 1; lowered as one module, the kernels' marks are events 1, 2, ... This holds
whichever way IKET is enabled: the module attribute ``tirx.iket.enabled``, or the environment
of a verified run-iket child (IketEnabled in src/backend/cuda/transforms/lower_iket.cc reads
both).
"""

import pytest
import tvm_ffi

import tvm
import tvm.testing
from tvm.backend.cuda import transforms as cuda_transforms
from tvm.script import tirx as T

# the four variables IketEnabled accepts as a verified run-iket child's environment
CHILD_ENV = {
    "TVM_IKET_INJECTED_CHILD_ENABLE": "1",
    "TVM_IKET_OFFICIAL_PROFILE": "cutlass-4.6.0",
    "CUDA_INJECTION64_PATH": "/opt/run-iket/injection.so",
    "SMODEL_INJECTION_CONFIG": "run-iket.json",
}


def marked_kernel(label):
    """A split-out sm_90a kernel with one IKET mark named ``label``"""
    text = (
        "@T.prim_func(private=True)\n"
        'def kernel(A: T.Buffer((32,), "int32")):\n'
        '    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), '
        '"calling_conv": 2})\n'
        '    tx = T.launch_thread("threadIdx.x", 32)\n'
        f'    T.cuda.iket.mark("{label}")\n'
        "    A[tx] = A[tx] + 1\n"
    )
    return tvm.script.from_source(text, {"T": T})


def event_ids(mod):
    """The ids of the official events in ``mod``'s functions, in the order of their names"""
    ids = []

    def visit(node):
        op = getattr(node, "op", None)
        if isinstance(op, tvm.ir.Op) and op.name == "tirx.cuda.iket_official_event":
            ids.append(int(node.args[0]))

    for gvar in sorted(mod.functions, key=lambda g: g.name_hint):
        tvm_ffi.structural_walk(mod[gvar].body, visit)
    return ids


@pytest.mark.parametrize(
    "enabled_by", ["attribute", "attribute-2", "attribute-negative", "environment"]
)
@pytest.mark.parametrize("count", [2, 3])
def test_enabled_module_events_are_numbered_over_its_kernels(count, enabled_by, monkeypatch):
    """With IKET enabled (an attribute of True or of any other nonzero value, or a run-iket
    child's environment), the marks of a module's kernels become events 1, 2, ..., count."""
    mod = tvm.IRModule({f"k{k}": marked_kernel(f"mark{k}") for k in range(count)})
    if enabled_by.startswith("attribute"):
        value = {"attribute": True, "attribute-2": 2, "attribute-negative": -1}[enabled_by]
        mod = mod.with_attr("tirx.iket.enabled", value)
    else:
        for name, value in CHILD_ENV.items():
            monkeypatch.setenv(name, value)
    After = cuda_transforms.LowerIket()(mod)
    assert event_ids(After) == list(range(1, count + 1))


if __name__ == "__main__":
    tvm.testing.main()
