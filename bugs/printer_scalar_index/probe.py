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
"""Reproducer: a one-element buffer printed as a scalar name drops a non-zero index.

    python bugs/printer_scalar_index/probe.py          # evidence
    python bugs/printer_scalar_index/probe.py --check  # exit 1 if the bug reproduces

``B = T.decl_buffer((1,), data=a)`` over a pointer parameter prints as ``T.decl_scalar(...)``,
a name the parser binds to the element's value; the printer then writes ``B[i] = B[i] + 1``
as ``B = B + 1``, which parses back as ``B[0] = B[0] + 1``. Layer ``round trip``: that
function through print -> parse. Control: the same with the index 0, where the shorthand is
right, must round-trip.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

from probe_common import finding, needs_tvm, round_trip_error, script

BUG = "printer_scalar_index"

with needs_tvm(BUG):
    from tvm.script import tirx as T


def scalar_name_access(at_zero):
    """``B[i] = B[i] + 1`` (or ``B[0]``) for a one-element view ``B`` of a pointer parameter."""

    @T.prim_func
    def main(a: T.handle("float32", "global"), n: T.int32):
        B = T.decl_buffer((1,), "float32", data=a)
        for i in range(n):
            B[0 if at_zero else i] = B[0 if at_zero else i] + T.float32(1)

    return main


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    control = round_trip_error(scalar_name_access(at_zero=True))
    if control is not None:
        evidence = f"even the index-0 access does not round-trip here: {control}"
        return [finding(BUG, "round trip", "untestable", evidence)]
    func = scalar_name_access(at_zero=False)
    store = next(ln.strip() for ln in func.script().splitlines() if "+ T.float32" in ln)
    error = round_trip_error(func)
    if error is not None:
        return [finding(BUG, "round trip", "present", f"`{store}`: {error}")]
    evidence = f"`{store}` round-trips (the index-0 access too)"
    return [finding(BUG, "round trip", "fixed", evidence)]


if __name__ == "__main__":
    script(BUG, probe)
