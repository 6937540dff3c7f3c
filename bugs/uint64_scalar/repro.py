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
"""A uint64 kernel scalar compiles into a kernel that no GPU runtime can launch."""

import re
import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((8,), "uint64"), x: T.uint64):
    for i in T.thread_binding(8, thread="threadIdx.x"):
        A[i] = x


try:
    lib = tvm.compile(main, target="cuda")
except ValueError as err:  # a compile-time rejection is a fix too (no silent launch failure)
    print("OK: rejected at compile time:", str(err).strip().splitlines()[0])
    sys.exit(0)
signature = re.search(r"main_kernel\(.*?\)", lib.mod.imports[0].inspect_source()).group(0)
print(signature)
if re.search(r"uint64_t x\b", signature):
    # GetArgConvertCode (src/runtime/pack_args.h) takes int32, uint32, int64, float32, float64
    sys.exit("a uint64 kernel scalar: its launch fails ('Cannot handle uint64 as device ...')")
print("OK: the kernel takes no uint64 scalar")
