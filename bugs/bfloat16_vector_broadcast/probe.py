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
"""Probe: BF16StorageLegalize leaves a Broadcast of a bfloat16 load typed bfloat16xN.

    python bugs/bfloat16_vector_broadcast/probe.py          # evidence
    python bugs/bfloat16_vector_broadcast/probe.py --check  # exit 1 if the bug reproduces

``A[0:4] = T.Broadcast(B[0], 4)`` over bfloat16 buffers, in a function as MakePackedAPI leaves
it (what VectorizeLoop makes of ``for i in T.vectorized(4): A[i] = B[0]``). Layer
``storage_legalize``: BF16StorageLegalize alone on it: PRESENT when it raises the TypeError of
a BufferStore whose value is still bfloat16x4; FIXED when it legalizes the store. (tvm.compile
of the loop fails the same way on the released package; a pipeline that runs
BF16ComputeLegalize again after MakePackedAPI, as the bfloat16 host-scalar fix does, gets it
through, so the pass alone is probed.) Control: the same function over float16 is left alone.
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
    """One element of ``B`` stored into every lane of ``A``, after MakePackedAPI."""

    @T.prim_func
    def main(a: T.handle(dtype), b: T.handle(dtype)):
        T.func_attr({"target": T.target("llvm")})
        A = T.decl_buffer((4,), dtype, data=a)
        B = T.decl_buffer((4,), dtype, data=b)
        A[0:4] = T.Broadcast(B[0], 4)

    return tvm.IRModule({"main": main})


def probe(run_gpu=False):
    del run_gpu  # nothing runs on a device
    legalize = tvm.tirx.transform.BF16StorageLegalize()
    try:
        legalize(broadcast("float16"))
    except Exception as err:
        evidence = f"even the float16 control is refused: {last_line(err)}"
        return [finding(BUG, "storage_legalize", "untestable", evidence)]
    try:
        legalize(broadcast("bfloat16"))
    except TypeError as err:
        evidence = f"BF16StorageLegalize raises {last_line(err)}"
        return [finding(BUG, "storage_legalize", "present", evidence)]
    return [finding(BUG, "storage_legalize", "fixed", "the Broadcast is held as uint16")]


if __name__ == "__main__":
    script(BUG, probe)
