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
"""Probe: WebGPU and Metal refuse a dtype they lack with an internal error.

    python bugs/codegen_missing_dtype/probe.py          # evidence
    python bugs/codegen_missing_dtype/probe.py --check  # exit 1 if the bug reproduces

A kernel storing ``T.Cast(dtype, n)`` into a ``dtype`` buffer, compiled for WebGPU (int64,
uint64, float64: WGSL has none of them) and Metal (float64, which Metal lacks by design).
Layer ``codegen``: PRESENT when any of them stops at an ``InternalError`` (an ICHECK or a
fatal of the code generator); FIXED when each is refused with a user-facing error (or
compiles). Control: the same kernel in int32 compiles for both targets.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bugs/: probe_common

from probe_common import finding, needs_tvm, repro_definition, script

BUG = "codegen_missing_dtype"

with needs_tvm(BUG, "tvm"):
    import tvm

    # the reproducer's kernel: a ``dtype`` buffer storing ``T.Cast(dtype, n)``
    kernel = repro_definition(__file__, "kernel")


CASES = [("webgpu", "int64"), ("webgpu", "uint64"), ("webgpu", "float64"), ("metal", "float64")]


def outcome(target, dtype):
    """None when it compiles, else (is internal, the last line of the error)."""
    try:
        tvm.compile(kernel(dtype), target=target)
    except Exception as err:  # what kind of refusal is the finding
        last = (str(err).strip().splitlines() or [""])[-1]
        return isinstance(err, tvm.error.InternalError), f"{type(err).__name__}: {last}"
    return None


def probe(run_gpu=False):
    del run_gpu  # compiled to source only
    for target in ("webgpu", "metal"):
        if outcome(target, "int32") is not None:
            evidence = f"even an int32 kernel does not compile for {target}"
            return [finding(BUG, "codegen", "untestable", evidence)]
    internal = []
    for target, dtype in CASES:
        result = outcome(target, dtype)
        if result is not None and result[0]:
            internal.append(f"{target} {dtype}: {result[1]}")
    if internal:
        return [finding(BUG, "codegen", "present", "; ".join(internal))]
    evidence = "each missing dtype is refused with a user-facing error (or compiles)"
    return [finding(BUG, "codegen", "fixed", evidence)]


if __name__ == "__main__":
    script(BUG, probe)
