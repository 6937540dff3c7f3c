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
"""host_scalar:blind2-no-metal -- the report's program (c: T.float32 = 1.5 on the host, a kernel
reads it) compiled for Metal (no device needed). Shown: the kernel's signature and the host's
TVMBackendAllocWorkspace call for c (its first argument: the device type; 1 = kDLCPU,
8 = kDLMetal)."""

import re
import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from _host_scalar_tirx import ON_TIRX, observe_tirx

from harness.blind_demo import main


def program():
    if ON_TIRX:
        return _program_tirx()
    from tvm.script import tirx as T

    @T.prim_func
    def func(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        c: T.float32 = T.float32(1.5)
        for i in T.thread_binding(8, thread="threadIdx.x"):
            C[i] = B[i] + c

    return func


def _program_tirx():
    """The same program on apache/tvm-tirx."""
    from tvm_tirx.script import tirx as T

    @T.function
    def func(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
        c: T.float32 = T.float32(1.5)
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = B[i] + c

    return func


def observe(func):
    if ON_TIRX:  # no OpenCL runtime there: the compile for metal
        return observe_tirx(func, "metal")
    import tvm

    lib = tvm.compile(func, target=tvm.target.Target("metal", host="llvm"))
    kernel = lib.mod.imports[0].inspect_source()
    start = kernel.index("kernel void")
    signature = " ".join(kernel[start : kernel.index(") {", start) + 1].split())
    host = lib.mod.inspect_source("ll")
    allocs = re.findall(r"%c\b[\w.]* = (?:tail )?call ptr %[\w.]+\(i32 \d+, i32 [^,]+", host)
    return f"{signature}\n{allocs}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind2-no-metal"))
