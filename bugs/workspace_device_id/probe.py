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
"""Probe: a host workspace buffer stops tvm.compile at an internal check in a function without
a tensor parameter (LowerTVMBuiltin: "Unknown device id").

    python bugs/workspace_device_id/probe.py          # evidence
    python bugs/workspace_device_id/probe.py --check  # exit 1 if the bug reproduces

``B = T.alloc_buffer((n,), "float32")`` (a dynamic size: a workspace, not a stack array) in a
function whose only parameter is ``n: T.int32``, compiled for llvm. Layer ``compile``: PRESENT
when tvm.compile refuses it (the program is valid: MakePackedAPI defines the device id only from
a tensor argument, and LowerTVMBuiltin's check fails without one); FIXED when it compiles and
``main(5)`` returns 1.0. Control: the same function with an unused tensor parameter compiles.

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
    from tvm.script import tirx as T
except Exception as err:  # no usable TVM: one line, exit 2
    print(f"workspace_device_id/probe.py: cannot import tvm/tirx: {err}", file=sys.stderr)
    raise SystemExit(2) from None

BUG = "workspace_device_id"
NAME = "workspace_device_id/probe.py"


@T.prim_func
def scalar_only(n: T.int32) -> T.float32:
    B = T.alloc_buffer((n,), "float32")
    for i in range(n):
        B[i] = T.float32(1)
    return B[n - 1]


@T.prim_func
def with_tensor(n: T.int32, A: T.Buffer((1,), "float32")) -> T.float32:
    B = T.alloc_buffer((n,), "float32")
    for i in range(n):
        B[i] = T.float32(1)
    return B[n - 1]


def last_line(err):
    lines = str(err).strip().splitlines()
    return f"{type(err).__name__}: {lines[-1] if lines else ''}"


def probe(run_gpu=False):
    del run_gpu  # compiled for the host and run there
    try:
        tvm.compile(with_tensor, target="llvm")
    except Exception as err:
        evidence = f"even with a tensor parameter it does not compile: {last_line(err)}"
        return [finding(BUG, "compile", "untestable", evidence)]
    try:
        result = tvm.compile(scalar_only, target="llvm")["main"](5)
    except Exception as err:
        return [finding(BUG, "compile", "present", f"no tensor parameter: {last_line(err)}")]
    if result != 1.0:
        return [finding(BUG, "compile", "present", f"compiles, but main(5) returned {result}")]
    return [finding(BUG, "compile", "fixed", "compiles without a tensor parameter; main(5) = 1.0")]


if __name__ == "__main__":
    run_main(NAME, lambda: main(None, NAME, probe))
