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
"""A loop bound to "cthread" is lowered as a thread launch, not as a virtual thread."""

import re
import sys

import tvm
from tvm.script import tirx as T

if not (dev := tvm.opencl(0)).exist:  # the run needs an OpenCL device (a GPU's, or pocl)
    print("no OpenCL device found: the kernels were not run")
    sys.exit(2)
for tag in ("vthread", "cthread"):

    @T.prim_func
    def main(A: T.Buffer((8,), "int32")):
        for c in T.thread_binding(2, thread=tag):  # a virtual thread: c = 0, then c = 1
            for t in T.thread_binding(4, thread="threadIdx.x"):
                A[c * 4 + t] = c * 4 + t + 1

    cuda = tvm.compile(main, target="cuda").mod.imports[0].inspect_source()  # no GPU needed
    print(f"{tag}, CUDA:", re.search(r"A_ptr\[.*;", cuda)[0])
    lib = tvm.compile(main, target="opencl")
    ids = sorted(set(re.findall(r"get_local_id\(-?\d\)", lib.mod.imports[0].inspect_source())))
    a = tvm.runtime.empty((8,), "int32", dev).copyfrom([0] * 8)
    lib["main"](a)
    print(f"{tag}, OpenCL ({', '.join(ids)}) on {dev}: A = {a.numpy().tolist()}")
if a.numpy().tolist() != list(range(1, 9)) or re.search(r"\bcthread\b", cuda):
    sys.exit("cthread is not lowered as a virtual thread: it is launched as a thread")
print("OK: cthread is lowered as a virtual thread")
