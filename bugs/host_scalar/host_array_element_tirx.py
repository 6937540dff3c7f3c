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
"""Patch 0002's rule by design on apache/tvm-tirx: one element of a host array that a kernel
reads is rejected there, and compiles on apache/tvm (a question for the maintainers).

    .venv-tirx/bin/python bugs/host_scalar/host_array_element_tirx.py

Patch 0002 (and its reference fix, on both lines) passes only a one-element host buffer to a
kernel by value; a kernel's load of an element of a larger host array is a user-facing
ValueError ("A kernel loads an element of `v` ..."), which SplitHostDevice alone raises on both
lines (the patched C++ build too). Through tvm.compile, apache/tvm 0.27 shrinks the 4-element
array to the one element used before SplitHostDevice, so the program compiles there and the
element reaches the kernel by value; tvm-tirx's pipeline does not, so it is rejected. Not a
disagreement of the fixes: whether an array's element should pass by value is a design question
for the maintainers. Generator class ``d:ice-on-valid:reference_fixes.HostLocalBuffers:A kernel
loads an element of ...`` on tvm-tirx. Exit 1 while tvm-tirx rejects it, 0 once it compiles.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness import reference_fixes

reference_fixes.install(["host_scalar"])


@T.function
def main(n: T.int32, A: T.Tensor((1,), "uint16")):
    v = T.alloc_tensor(ty_args=[T.Tensor((4,), "uint16", scope="local")])
    v[1] = T.Cast("uint16", n)
    with T.launch_thread("threadIdx.x", 1):
        A[0] = v[1]


try:
    tvm_tirx.tirx.compile(main, target=tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"}))
except Exception as err:
    print(f"reproduced: {str(err).strip().splitlines()[-1][:160]}")
    sys.exit(1)
print("not reproduced: the kernel reading one element of a host array compiles")
