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
"""The tvm-tirx probe of narrow_scalar: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/narrow_scalar/probe_tirx.py          # evidence
    python bugs/narrow_scalar/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/narrow_scalar/probe_tirx.py --run-gpu  # also the gpu run layer (a child)
    python bugs/narrow_scalar/probe_tirx.py --json   # the findings as JSON

Layers: codegen (float16 / int8 ``T.let`` values computed on the host and read by a kernel:
a kernel scalar parameter narrower than 32 bits = present), gpu run (--run-gpu, a CUDA device,
in a child process: the runtime's "Cannot handle ... as device function argument" =
present).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding
from probe_tirx_common import N, T, np

NARROW = ("float16", "int8")
NARROW_VALUES = {"float16": 1.5, "int8": -100}
# C types of the kernel scalar parameters the runtime passes (int32, uint32, int64, float32,
# float64), as the CUDA code generator prints them
LAUNCHABLE = ("int", "uint", "int64_t", "float", "double")
# what in the gpu run's child is the bug: the runtime's "Cannot handle <dtype> as ..."
GPU_SHOWS = {"refusal": "as device function argument"}


def narrow_function(dtype):
    """``C[i] = B[i] + c`` on cuda threads, ``c: T.let[dtype] = x + 1`` computed on the host."""
    ty = getattr(T, dtype)

    @T.function
    def main(B: T.Tensor((N,), dtype), C: T.Tensor((N,), dtype), x: ty):
        c: T.let[ty] = x + ty(1)
        with T.launch_thread("threadIdx.x", N) as i:
            C[i] = B[i] + c

    return main


def _scalar_ctype(signature):
    params = signature.split("main_kernel(", 1)[-1].rstrip(")").split(",")
    scalars = [p.split()[:-1] for p in params if "*" not in p]
    return " ".join(scalars[0]) if scalars else None


def probe(run_gpu=False):
    bug = "narrow_scalar"
    rows = []

    @common.needs(script=NARROW)
    def codegen():
        signatures = {
            d: common.cuda_kernel_signature(common.compile_cuda(narrow_function(d))) for d in NARROW
        }
        ctypes = {d: _scalar_ctype(s) for d, s in signatures.items()}
        if any(c is None for c in ctypes.values()):
            evidence = f"cannot tell: no kernel scalar parameter in {signatures}"
            return finding(bug, "codegen", "untestable", evidence)
        refused = [f"{d} -> {c}" for d, c in ctypes.items() if c not in LAUNCHABLE]
        evidence = "float16 T.let: " + signatures["float16"]
        if refused:
            evidence += f" | kernel scalars the runtime cannot pass: {', '.join(refused)}"
            return finding(bug, "codegen", "present", evidence)
        return finding(
            bug, "codegen", "fixed", evidence + " | every kernel scalar is 32 or 64 bits"
        )

    rows.append(common.run_layer(bug, "codegen", codegen))
    rows.append(common.gpu_layer(bug, __file__, "float16", run_gpu, **GPU_SHOWS))
    return rows


def child(dtype):
    """The gpu run's child (``--child <dtype>``): the function of ``dtype`` on cuda(0)."""
    b = np.arange(N).astype(dtype)
    expected = (b + (np.array(NARROW_VALUES[dtype], dtype) + np.array(1, dtype))).tolist()
    lib = common.compile_cuda(narrow_function(dtype))
    common.call_on_cuda(lib, dtype, (NARROW_VALUES[dtype],), expected)


if __name__ == "__main__":
    common.script("narrow_scalar", probe, child)
