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
"""Probe: a vectorized loop storing one bfloat16 element into every lane does not compile.

    python bugs/bfloat16_vector_broadcast/probe.py          # evidence
    python bugs/bfloat16_vector_broadcast/probe.py --check  # exit 1 if the bug reproduces

``for i in T.vectorized(4): A[i] = B[0]`` over bfloat16 buffers becomes ``A[0:4] =
T.Broadcast(B[0], 4)``; BF16StorageLegalize holds the buffers as uint16. Layer ``compile``:
``tvm.compile`` for llvm: PRESENT when it raises the TypeError of a BufferStore whose value is
still bfloat16x4; FIXED when it compiles. Control: the same loop over float16 compiles.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common
from probe_common import finding, last_line, needs_tvm, script

BUG = "bfloat16_vector_broadcast"

with needs_tvm(BUG, "tvm"):
    import tvm
    from tvm.script import tirx as T


def broadcast(dtype):
    """One element of ``B`` stored into every lane of ``A`` by a vectorized loop."""

    @T.prim_func
    def main(A: T.Buffer((4,), dtype), B: T.Buffer((4,), dtype)):
        for i in T.vectorized(4):
            A[i] = B[0]

    return main


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    try:
        tvm.compile(broadcast("float16"), target="llvm")
    except Exception as err:
        evidence = f"even the float16 control does not compile: {last_line(err)}"
        return [finding(BUG, "compile", "untestable", evidence)]
    try:
        tvm.compile(broadcast("bfloat16"), target="llvm")
    except TypeError as err:
        return [finding(BUG, "compile", "present", f"tvm.compile raises {last_line(err)}")]
    return [finding(BUG, "compile", "fixed", "the bfloat16 broadcast compiles")]


if __name__ == "__main__":
    script(BUG, probe)
