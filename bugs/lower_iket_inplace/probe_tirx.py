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
"""The tvm-tirx probe of lower_iket_inplace: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/lower_iket_inplace/probe_tirx.py          # evidence
    python bugs/lower_iket_inplace/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/lower_iket_inplace/probe_tirx.py --json   # the findings as JSON

Layers: pass (does LowerIket change the module it is given?) and compile (three kernels with
IKET marks; control: the same kernels unmarked).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_common import finding, first_line
from probe_tirx_common import N, T, tvm_tirx


def probe(run_gpu=False):
    bug = "lower_iket_inplace"
    sm90 = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_90a"})

    @T.function
    def marked(A: T.Tensor((N,), "int32")):
        T.func_attr({"target": sm90.with_host("llvm")})
        with T.launch_thread("threadIdx.x", N) as i:
            T.cuda.iket_mark("first")
            A[i] = 1
        with T.launch_thread("threadIdx.x", N) as i:
            T.cuda.iket_mark("second")
            A[i] = A[i] + 2
        with T.launch_thread("threadIdx.x", N) as i:
            T.cuda.iket_mark("third")
            A[i] = A[i] + 3

    @T.function
    def unmarked(A: T.Tensor((N,), "int32")):
        T.func_attr({"target": sm90.with_host("llvm")})
        with T.launch_thread("threadIdx.x", N) as i:
            A[i] = 1
        with T.launch_thread("threadIdx.x", N) as i:
            A[i] = A[i] + 2
        with T.launch_thread("threadIdx.x", N) as i:
            A[i] = A[i] + 3

    def split(func):
        return tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.IRModule({"main": func}))

    def pass_row():
        from tvm_tirx.backend.cuda.transform import LowerIket

        return common.in_place_row(bug, LowerIket, split(marked), split(unmarked))

    def compile_row():
        try:
            tvm_tirx.tirx.compile(unmarked, target=sm90)
        except Exception as err:  # the control must compile
            return finding(bug, "compile", "untestable", f"control: {first_line(err)}")
        try:
            tvm_tirx.tirx.compile(marked, target=sm90)
        except RuntimeError as err:  # the code generator meets a mark left in a kernel
            return finding(bug, "compile", "present", f"three marked kernels: {first_line(err)}")
        return finding(bug, "compile", "fixed", "three marked kernels compile")

    return [common.run_layer(bug, "pass", pass_row), common.run_layer(bug, "compile", compile_row)]


if __name__ == "__main__":
    common.script("lower_iket_inplace", probe)
