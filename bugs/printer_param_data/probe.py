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

Exit codes: 0 after printing; 1 with ``--check`` when the bug reproduces; 2 with a one-line
reason when it cannot run or is given an unknown argument. ``probe(run_gpu)`` returns the
findings for scripts/check_tvm.py.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

try:
    from probe_common import finding, main, run_main

    import tvm
    import tvm.script
    import tvm.tirx.transform
    from tvm.script import tirx as T
except Exception as err:  # no usable TVM: one line, exit 2
    print(f"printer_param_data/probe.py: cannot import tvm/tirx: {err}", file=sys.stderr)
    raise SystemExit(2) from None

BUG = "printer_param_data"
NAME = "printer_param_data/probe.py"


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


def round_trip_error(mod):
    """None when print -> parse gives ``mod`` back, else the parser's complaint (one line)."""
    try:
        tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script()))
    except Exception as err:  # the parser's DiagnosticError, or a structural difference
        lines = [ln.strip() for ln in str(err).splitlines() if ln.strip().startswith("error:")]
        return (lines or [f"{type(err).__name__}: {str(err).strip().splitlines()[0]}"])[0]
    return None


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    mod = flattened(1)
    line = next(ln.strip() for ln in mod.script().splitlines() if "decl_buffer" in ln)
    findings = [finding(BUG, "print", "untestable", f"FlattenBuffer's view prints as `{line}`")]
    control = round_trip_error(flattened(2))
    if control is not None:
        evidence = f"even a two-element parameter does not round-trip here: {control}"
        return [*findings, finding(BUG, "round trip", "untestable", evidence)]
    error = round_trip_error(mod) or round_trip_error(parameter_load())
    if error is not None:
        return [*findings, finding(BUG, "round trip", "present", f"print -> parse: {error}")]
    evidence = (
        "FlattenBuffer's output and a parameter's load round-trip (a two-element parameter's too)"
    )
    return [*findings, finding(BUG, "round trip", "fixed", evidence)]


if __name__ == "__main__":
    run_main(NAME, lambda: main(None, NAME, probe))
