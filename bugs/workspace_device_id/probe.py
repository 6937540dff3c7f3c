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
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import judge, last_line, needs_tvm, script

BUG = "workspace_device_id"

with needs_tvm(BUG):
    import tvm
    from tvm.script import tirx as T


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


def with_tensor_error():
    """None when the control compiles, else its error's last line."""
    try:
        tvm.compile(with_tensor, target="llvm")
    except Exception as err:
        return last_line(err)
    return None


def wrong_without_tensor():
    """None when ``scalar_only`` compiles and ``main(5)`` is 1.0, else what went wrong."""
    try:
        result = tvm.compile(scalar_only, target="llvm")["main"](5)
    except Exception as err:
        return f"no tensor parameter: {last_line(err)}"
    return None if result == 1.0 else f"compiles, but main(5) returned {result}"


def probe(run_gpu=False):
    del run_gpu  # compiled for the host and run there
    fixed = "compiles without a tensor parameter; main(5) = 1.0"
    untestable = "even with a tensor parameter it does not compile: "
    return [judge(BUG, "compile", with_tensor_error, wrong_without_tensor, fixed, untestable)]


if __name__ == "__main__":
    script(BUG, probe)
