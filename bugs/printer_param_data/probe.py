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
"""Reproducer: a one-element buffer parameter's data pointer prints as ``A.buffer.data``.

    python bugs/printer_param_data/probe.py          # evidence
    python bugs/printer_param_data/probe.py --check  # exit 1 if the bug reproduces

``main(A: T.Buffer((1,), "float32"), x)`` with ``A_1 = T.decl_buffer((1,), data=A.data,
layout=None)``, which FlattenBuffer writes for every one-element parameter: the printer writes
``data=A.buffer.data`` (``A.source.data`` on 0.27), the scalar shorthand of a cell, and the
parser, which binds a parameter's name to the buffer, refuses it. Layers: ``print`` (the line
the printer writes: the premise, never a verdict) and ``round trip`` (FlattenBuffer's output
through print -> parse, and ``C[0] = A[0] + 1`` with one-element parameters, whose load the
printer writes as the bare name ``A``). Control: the same with a two-element parameter must
round-trip.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, judge, needs_tvm, parser_line, round_trip_error, script

BUG = "printer_param_data"

with needs_tvm(BUG):
    import tvm
    import tvm.tirx.transform
    from tvm.script import tirx as T


def flattened(n):
    """FlattenBuffer's output for ``A[0] = x``, ``A`` a parameter of ``n`` elements."""

    @T.prim_func
    def main(A: T.Buffer((n,), "float32"), x: T.float32):
        A[0] = x

    return tvm.tirx.transform.FlattenBuffer()(tvm.IRModule({"main": main}))


def parameter_load():
    """``C[0] = A[0] + 1`` with one-element parameters: no pass needed."""

    @T.prim_func
    def main(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
        C[0] = A[0] + T.float32(1)

    return tvm.IRModule({"main": main})


def parse_error(mod):
    """None when print -> parse gives ``mod`` back, else the parser's complaint (one line)."""
    return round_trip_error(mod, parser_line)


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    mod = flattened(1)
    line = next(ln.strip() for ln in mod.script().splitlines() if "decl_buffer" in ln)
    both = "FlattenBuffer's output and a parameter's load round-trip"
    return [
        finding(BUG, "print", "untestable", f"FlattenBuffer's view prints as `{line}`"),
        judge(
            BUG,
            "round trip",
            control=lambda: parse_error(flattened(2)),
            case=lambda: parse_error(mod) or parse_error(parameter_load()),
            fixed=f"{both} (a two-element parameter's too)",
            untestable="even a two-element parameter does not round-trip here: ",
            present="print -> parse: ",
        ),
    ]


if __name__ == "__main__":
    script(BUG, probe)
