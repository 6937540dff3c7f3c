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
"""Probe: WebGPU prints an infinity or NaN constant as a name WGSL does not define.

    python bugs/webgpu_float_literal/probe.py          # evidence
    python bugs/webgpu_float_literal/probe.py --check  # exit 1 if the bug reproduces

``A[0] = c`` in a kernel, ``c`` a float32 or float16 constant +inf, -inf or NaN, and
``B[i] = T.isinf(A[i])`` (whose lowering compares with an infinity constant), compiled for
"webgpu" to WGSL source (no GPU needed). CodeGenWebGPU's FloatImm printer writes
``std::scientific << value`` and a suffix: ``inff``, ``-inff``, ``nanf``, ``infh``, ``nanh``,
which WGSL does not define (a shader module with them is rejected). One layer, ``codegen``: a
kernel that prints such a name, or a constant division by zero (a const-expression that WGSL
rejects as well) = present; a user-facing refusal (ValueError, TypeError) counts as fixed.
Control: ``A[0] = 0.5`` prints a WGSL float literal, else untestable.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import first_line, judge, needs_tvm, script

BUG = "webgpu_float_literal"
# an undefined inf/nan name, or a constant division by zero
NO_WGSL = re.compile(r"\b(inf|nan)[fh]?\b|/\s*0")

with needs_tvm(BUG, "tvm"):
    import tvm
    from tvm.script import tirx as T

CASES = [(dtype, text) for dtype in ("float32", "float16") for text in ("inf", "-inf", "nan")]


def store(dtype, value):
    @T.prim_func
    def main(A: T.Buffer((1,), dtype)):
        for tx in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = tvm.tirx.const(value, dtype)

    return main


@T.prim_func
def isinf_kernel(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "int32")):
    for tx in T.thread_binding(4, thread="threadIdx.x"):
        B[tx] = T.Cast("int32", T.isinf(A[tx]))


def kernel_line(func, target_line):
    """The kernel source's line that holds ``target_line`` (stripped), or ("refused", the
    error's first line) when code generation refuses the function with a user-facing error."""
    try:
        source = tvm.compile(func, target="webgpu").mod.imports[0].inspect_source()
    except (ValueError, TypeError) as err:
        return "refused", first_line(err)
    return next((x.strip() for x in source.splitlines() if target_line in x), "no such line")


def probe(run_gpu=False):
    del run_gpu  # compiles to source only

    def control():
        line = kernel_line(store("float32", 0.5), "A_ptr[0i] =")
        return None if "5.000000e-01f" in line else f"A[0] = 0.5 prints `{line}`"

    def case():
        found = []
        for dtype, text in CASES:
            line = kernel_line(store(dtype, float(text)), "A_ptr[0i] =")
            if isinstance(line, str) and NO_WGSL.search(line):
                found.append(f"{dtype} {text}: `{line}`")
        line = kernel_line(isinf_kernel, "B_ptr[")
        if isinstance(line, str) and NO_WGSL.search(line):
            found.append(f"T.isinf: `{line}`")
        return "; ".join(found) or None

    fixed = "webgpu: every infinity and NaN constant prints as WGSL that defines it (or is refused)"
    return [judge(BUG, "codegen", control, case, fixed, "control: ", "webgpu: ")]


if __name__ == "__main__":
    script(BUG, probe)
