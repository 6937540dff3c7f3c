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
"""A kernel scalar narrower than 32 bits becomes a kernel parameter no GPU runtime can pass."""

import re
import sys

import tvm
from tvm.script import tirx as T

# the scalar types the GPU runtimes pass (GetArgConvertCode, src/runtime/pack_args.h)
LAUNCHABLE = {"int", "uint", "int64_t", "float", "double"}  # int32 uint32 int64 f32 f64
bad = []
for dtype in ("float16", "int8", "int16", "uint8", "uint16", "bool", "int32"):

    @T.prim_func
    def main(A: T.Buffer((8,), dtype), x: tvm.tirx.Var("x", dtype)):
        for i in T.thread_binding(8, thread="threadIdx.x"):
            A[i] = x

    kernel = tvm.compile(main, target="cuda").mod.imports[0].inspect_source()
    signature = re.search(r"main_kernel\((.*?)\)", kernel).group(0)
    params = [p.strip().rsplit(" ", 1) for p in signature[12:-1].split(",") if "*" not in p]
    print(f"{dtype:8} {signature}")
    bad += [f"{dtype} -> {ctype} {name}" for ctype, name in params if ctype not in LAUNCHABLE]
if bad:
    sys.exit(f"kernel scalars the runtime refuses ('Cannot handle ...'): {', '.join(bad)}")
print("OK: every kernel scalar is a 32- or 64-bit type the GPU runtimes pass")
