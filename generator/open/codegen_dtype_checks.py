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
"""Open (both lines): WebGPU and Metal refuse a dtype they lack with an internal error.

    .venv/bin/python generator/open/codegen_dtype_checks.py

A kernel that stores an int64 / uint64 / float64 value compiled for WebGPU stops at an
ICHECK of CodeGenWebGPU ("Check failed: (t.bits() != 64) is false: CodeGenWebGPU: do not
support int64", "only support f16 or f32"), a float64 one for Metal at a fatal "Cannot convert
type float64 to Metal type": the target lacks the type, but the user gets an internal error
from the code generator, not a diagnostic naming the value. Generator classes
``d:ice-on-valid:codegen:Check failed: ... CodeGenWebGPU ...`` and
``d:ice-on-valid:codegen:Cannot convert type floatN to Metal type``. Out of this repository's
scope (target limits, not the host/device boundary); prints one line per case, exit 1 while
any is an internal error.
"""

import sys

import tvm
from tvm.script import tirx as T


def kernel(dtype):
    @T.prim_func
    def main(A: T.Buffer((1,), dtype), n: T.int32):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.Cast(dtype, n)

    return main


internal = 0
for target, dtype in [("webgpu", "int64"), ("webgpu", "uint64"), ("webgpu", "float64"),
                      ("metal", "float64")]:  # fmt: skip
    try:
        tvm.compile(kernel(dtype), target=target)
        print(f"{target} {dtype}: compiles")
    except Exception as err:
        text = [x for x in str(err).splitlines() if "Check failed" in x or "Cannot" in x]
        internal += 1
        print(f"{target} {dtype}: {type(err).__name__}: {(text or [str(err)])[-1].strip()[:120]}")
sys.exit(1 if internal else 0)
