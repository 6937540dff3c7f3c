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
"""The tvm-tirx probe of webgpu_float_literal: its ``probe()`` is what
scripts/check_tvm.py runs on the apache/tvm-tirx line (an interpreter with tvm_tirx and no
tvm), in that package's API.

    python bugs/webgpu_float_literal/probe_tirx.py          # evidence
    python bugs/webgpu_float_literal/probe_tirx.py --check  # exit 1 if it reproduces
    python bugs/webgpu_float_literal/probe_tirx.py --json   # the findings as JSON

``A[0] = c`` in a kernel for a float32 / float16 constant +inf, -inf or NaN, and a
kernel of ``T.isinf``, compiled to WGSL: a name WGSL does not define (``inff``, ``nanh``)
or a constant division by zero is the finding; ``A[0] = 0.5`` is the control.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: the shared modules
import probe_tirx_common as common  # first: one line and exit 2 without tvm_tirx
from probe_tirx_common import T, tvm_tirx


def probe(run_gpu=False):
    """``A[0] = c`` in a kernel for a float32 / float16 constant +inf, -inf or NaN, and a
    kernel of ``T.isinf``, compiled to WGSL: a name WGSL does not define (``inff``, ``nanh``)
    or a constant division by zero is the finding; ``A[0] = 0.5`` is the control."""
    bug = "webgpu_float_literal"
    no_wgsl = re.compile(r"\b(inf|nan)[fh]?\b|/\s*0")

    def store(dtype, value):
        @T.function
        def main(A: T.Tensor((1,), dtype)):
            with T.launch_thread("threadIdx.x", 1):
                A[0] = T.Cast(dtype, tvm_tirx.tirx.const(value, dtype))

        return main

    @T.function
    def isinf_kernel(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "int32")):
        with T.launch_thread("threadIdx.x", 4) as tx:
            B[tx] = T.Cast("int32", T.isinf(A[tx]))

    def line_of(func, start):
        try:
            lib = tvm_tirx.tirx.compile(func, target="webgpu")
        except (ValueError, TypeError):  # a user-facing refusal: not the finding
            return ""
        source = lib.mod.imports[0].inspect_source()
        return next((x.strip() for x in source.splitlines() if x.strip().startswith(start)), "")

    def control():
        line = line_of(store("float32", 0.5), "A_ptr[0i] =")
        return None if "5.000000e-01f" in line else f"A[0] = 0.5 prints {line!r}"

    def case():
        found = []
        for dtype in ("float32", "float16"):
            for text in ("inf", "-inf", "nan"):
                line = line_of(store(dtype, float(text)), "A_ptr[0i] =")
                if no_wgsl.search(line):
                    found.append(f"{dtype} {text}: `{line}`")
        line = line_of(isinf_kernel, "B_ptr[")
        if no_wgsl.search(line):
            found.append(f"T.isinf: `{line}`")
        return "; ".join(found) or None

    fixed = "webgpu: every infinity and NaN constant prints as WGSL that defines it"
    return common.judged_layer(bug, "codegen", control, case, fixed, "control: ", "webgpu: ")


if __name__ == "__main__":
    common.script("webgpu_float_literal", probe)
