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
"""A host-level scalar of a cuda PrimFunc is allocated on the device and written from the host."""

import re
import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    c: T.float32 = T.float32(1.5)  # host level: outside the kernel
    for i in T.thread_binding(8, thread="threadIdx.x"):
        C[i] = B[i] + c


lib = tvm.compile(main, target="cuda")  # compiles without a GPU
kernel = lib.mod.imports[0].inspect_source()
print(next(line for line in kernel.splitlines() if "__global__" in line))
host_ir = lib.mod.inspect_source("ll")
# %c = TVMBackendAllocWorkspace(device_type, device_id, nbytes, ...), then host stores into %c
allocation = r"(%c\b[\w.]*) = (?:tail )?call ptr %[\w.]+\(i32 (\d+),[^)]*\)"
for match in re.finditer(allocation, host_ir):
    cell, device_type = match.groups()
    store = re.search(rf"store [^\n,]*, ptr {re.escape(cell)}(?![\w.])", host_ir)
    if device_type != "1" and store:  # 1 = kDLCPU
        print(match.group(0), store.group(0), sep="\n")
        sys.exit(f"the host stores into c, which it allocated on device type {device_type}")
print("OK: no device memory is written from the host")
