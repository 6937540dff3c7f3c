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
"""Demo program on which the reference fix and blind3-array-not-candidate differ.

A host array x[2] that only the host code writes and reads, summed into a cell that a kernel
reads (run on pocl)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import compile_and_run, main

OPENCL = True


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(B: T.Buffer((4,), "float32"), C: T.Buffer((2, 4), "float32")):
        x = T.alloc_buffer((2,), "float32", scope="local")
        x[0] = T.float32(1.0)
        x[1] = T.float32(2.0)
        s: T.float32 = x[0] + x[1]
        for i in T.thread_binding(4, thread="threadIdx.x"):
            C[0, i] = B[i] + s

    return func


def observe(func):
    """The host's workspace allocations (device type, device id, bytes) and a run's values."""
    import re

    import numpy as np

    import tvm

    lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
    host = lib.mod.inspect_source("ll")
    pattern = r"= (?:tail )?call ptr %[\w.]+\((i32 \d+, i32 [^,]+, i64 \d+)"
    allocations = re.findall(pattern, host)
    values = compile_and_run(func, [np.ones(4, "float32"), np.zeros((2, 4), "float32")], [1])
    return f"workspaces {allocations}; {values}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind3-array-not-candidate"))
