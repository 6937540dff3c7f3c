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
"""A uint64 kernel scalar compiles, and no GPU runtime can pass it to the kernel."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((8,), "uint64"), x: T.uint64):
    for i in T.thread_binding(8, thread="threadIdx.x"):
        A[i] = x


kinds = ("cuda", "rocm", "opencl", "vulkan", "metal")
dev = next((d for d in (getattr(tvm, k)(0) for k in kinds) if d.exist), None)
if dev is None:  # the launch needs a GPU (on the PyPI wheel: a CUDA one)
    print(f"no GPU found ({', '.join(kinds)}): the launch was not run")
    sys.exit(2)
lib = tvm.compile(main, target=tvm.target.Target.from_device(dev))
a, x = tvm.runtime.empty((8,), "uint64", dev), 2**40 + 3
try:
    lib["main"](a, x)
except tvm.error.InternalError as err:  # GetArgConvertCode, src/runtime/pack_args.h
    sys.exit(f"the launch fails: {str(err).strip().splitlines()[-1]}")
if not (a.numpy() == x).all():
    sys.exit(f"wrong values: {a.numpy()}")
print(f"OK: the kernel got x = {x} on {dev}")
