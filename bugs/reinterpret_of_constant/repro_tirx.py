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
"""tvm-tirx: a reinterpret of a constant prints as the address of a literal (OpenCL, CUDA)."""

import re
import sys

import tvm_tirx
from tvm_tirx.script import tirx as T


@T.function
def main(A: T.Tensor((1,), "uint32")):
    with T.launch_thread("threadIdx.x", 1):
        A[0] = T.reinterpret(T.float32(2.0), ty=T.uint32)  # the bits of 2.0f: 0x40000000


bad = 0
for target in ("opencl", {"kind": "cuda", "arch": "sm_80"}):  # compiles to source, no GPU
    target = tvm_tirx.target.Target(target)
    source = tvm_tirx.tirx.compile(main, target=target).mod.imports[0].inspect_source()
    line = next(x.strip() for x in source.splitlines() if "A_ptr[0] =" in x)
    print(f"{target.kind.name}: {line}")
    bad += bool(re.search(r"&\(\s*[-+.0-9]", line))  # `&(literal)`: no lvalue, no valid C
if bad:
    sys.exit("the kernel takes the address of a literal, which the device compiler refuses")
print("OK: no kernel takes the address of a literal")
