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
"""A host-level scalar of a GPU PrimFunc is allocated on the device and written from the host."""

import re
import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    c: T.float32 = T.float32(1.5)  # host level: outside the kernel
    for i in T.thread_binding(8, thread="threadIdx.x"):
        C[i] = B[i] + c


kernel = tvm.compile(main, target="cuda").mod.imports[0].inspect_source()  # no GPU needed
print(next(line for line in kernel.splitlines() if "__global__" in line))
allocation = r"(%c\b[\w.]*) = (?:tail )?call ptr %[\w.]+\(i32 (\d+),[^)]*\)"
written = []
for target in ("cuda", "opencl", "metal"):  # each compiles without a GPU
    host_ir = tvm.compile(main, target=target).mod.inspect_source("ll")
    for alloc in re.finditer(allocation, host_ir):  # TVMBackendAllocWorkspace(device_type, ...)
        store = re.search(rf"store [^\n,]*, ptr {re.escape(alloc[1])}(?![\w.])", host_ir)
        if alloc[2] != "1" and store:  # the host stores into memory of device type != kDLCPU
            print(f"{target:6}", alloc[0], store[0], sep="  ")
            written.append(alloc[2])
if written:
    sys.exit(f"the host stores into c, which it allocated on device types {', '.join(written)}")
print("OK: no device memory is written from the host")
