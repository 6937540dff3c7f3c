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
"""Probe: a reinterpret of a constant prints as the address of a literal (OpenCL, CUDA).

    python bugs/reinterpret_of_constant/probe.py          # evidence
    python bugs/reinterpret_of_constant/probe.py --check  # exit 1 if the bug reproduces

``A[0] = T.reinterpret("uint32", T.float32(2.0))`` in a kernel, compiled to source for OpenCL
and CUDA (no device needed). Layer ``codegen``: PRESENT when a kernel line takes the address
of a literal (``&(2.000000e+00f)``), which no C compiler accepts; FIXED when neither does.
Control: a reinterpret of a variable must print as before (``&(x)`` of a named value).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

import re

from probe_common import finding, needs_tvm, script

BUG = "reinterpret_of_constant"

with needs_tvm(BUG, "tvm"):
    import tvm
    from tvm.script import tirx as T


TARGETS = ("opencl", {"kind": "cuda", "arch": "sm_80"})
LITERAL = re.compile(r"&\(\s*[-+.0-9]")


def kernel_line(value_of):
    """The store line of ``A[0] = reinterpret(value_of(x))`` per target kind."""

    @T.prim_func
    def main(A: T.Buffer((1,), "uint32"), x: T.float32):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.reinterpret("uint32", value_of(x))

    lines = {}
    for spec in TARGETS:
        target = tvm.target.Target(spec)
        source = tvm.compile(main, target=target).mod.imports[0].inspect_source()
        lines[target.kind.name] = next(x.strip() for x in source.splitlines() if "A_ptr[0] =" in x)
    return lines


def probe(run_gpu=False):
    del run_gpu  # compiled to source only
    control = kernel_line(lambda x: x)
    if any(LITERAL.search(line) for line in control.values()):
        evidence = f"even a reinterpret of a variable prints a literal address: {control}"
        return [finding(BUG, "codegen", "untestable", evidence)]
    lines = kernel_line(lambda x: T.float32(2.0))
    bad = {kind: line for kind, line in lines.items() if LITERAL.search(line)}
    if bad:
        shown = "; ".join(f"{kind}: `{line}`" for kind, line in bad.items())
        return [finding(BUG, "codegen", "present", f"address of a literal: {shown}")]
    shown = "; ".join(f"{kind}: `{line}`" for kind, line in lines.items())
    return [finding(BUG, "codegen", "fixed", f"no literal address: {shown}")]


if __name__ == "__main__":
    script(BUG, probe)
