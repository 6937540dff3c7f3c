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
"""The tvm-tirx probe of verify_memory: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/verify_memory/probe_tirx.py          # evidence
    python bugs/verify_memory/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/verify_memory/probe_tirx.py --json   # the findings as JSON

Layers: analysis (``verify_memory`` on the pipeline's shape: the parameters re-declared by
``T.decl_tensor(C.data, ...)``) and compile (a host store into an argument before a launch,
and a loop bound to no thread, through ``tvm_tirx.tirx.compile`` for cuda: silent = present,
VerifyMemory's "is directly accessed by host memory" = fixed).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding, first_line
from probe_tirx_common import N, T, tvm_tirx

VERIFIER_TEXT = "is directly accessed by host memory"


def verify_memory_functions():
    """(host store before a launch, a loop bound to no thread): both must be rejected."""

    @T.function
    def main(B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        C[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", N) as i:
            C[i] = B[i]

    host_store = main

    @T.function
    def main(B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        for i in range(N):
            C[i] = B[i]

    return host_store, main


def _pipeline_shaped_functions():
    """The host store as the verifier sees it in the pipeline (through ``decl_tensor``
    aliases of the parameters), and on the parameter itself (verify_memory_functions'); both
    with a cuda target."""

    @T.function
    def through_alias(B: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        B_1 = T.decl_tensor(B.data, ty_args=[T.Tensor((N,), "float32")])
        C_1 = T.decl_tensor(C.data, ty_args=[T.Tensor((N,), "float32")])
        C_1[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", N) as i:
            C_1[i] = B_1[i]

    on_parameter, _ = verify_memory_functions()
    target = common.cuda_target()
    return through_alias.with_attr("target", target), on_parameter.with_attr("target", target)


def _compile_outcome(func):
    """'silent', 'rejected' (with the verifier's line) or 'error' (with the first line)."""
    try:
        common.compile_cuda(func)
    except Exception as err:
        lines = [x.strip() for x in str(err).splitlines()]
        hit = next((x for x in lines if VERIFIER_TEXT in x), None)
        return ("rejected", hit) if hit else ("error", first_line(err))
    return "silent", ""


def probe(run_gpu=False):
    bug = "verify_memory"
    rows = []

    @common.needs(script=("decl_tensor",), package=("tirx.analysis.verify_memory",))
    def analysis():
        alias, param = _pipeline_shaped_functions()
        verify = tvm_tirx.tirx.analysis.verify_memory
        if verify(param):
            evidence = "verify_memory accepts a host store on the parameter itself: cannot tell"
            return finding(bug, "analysis", "untestable", evidence)
        if verify(alias):
            evidence = (
                "verify_memory(host store through `C_1 = T.decl_tensor(C.data, ...)`) is True; "
                "on `C` itself it is False"
            )
            return finding(bug, "analysis", "present", evidence)
        return finding(
            bug, "analysis", "fixed", "verify_memory rejects the store through the alias"
        )

    @common.needs()
    def compile_layer():
        host_store, unbound = verify_memory_functions()
        outcomes = {
            "host store before launch": _compile_outcome(host_store),
            "unbound loop": _compile_outcome(unbound),
        }
        errors = [f"{k}: {v}" for k, (s, v) in outcomes.items() if s == "error"]
        if errors:
            return finding(bug, "compile", "untestable", "cannot tell: " + "; ".join(errors))
        silent = [k for k, (s, _) in outcomes.items() if s == "silent"]
        if silent:
            evidence = f"tvm_tirx.tirx.compile(cuda) accepts: {', '.join(silent)} (no error)"
            return finding(bug, "compile", "present", evidence)
        return finding(bug, "compile", "fixed", f"both rejected: {outcomes['unbound loop'][1]}")

    rows.append(common.run_layer(bug, "analysis", analysis))
    rows.append(common.run_layer(bug, "compile", compile_layer))
    return rows


if __name__ == "__main__":
    common.script("verify_memory", probe)
