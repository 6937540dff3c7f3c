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
"""Open (apache/tvm 0.27, released): StorageRewrite drops an allocation's annotations, so a
host-level "global" buffer annotated to stay in host memory (``device_type`` kDLCPU) is
allocated on the GPU, and the host's store into it writes device memory.

    .venv/bin/python generator/open/storage_rewrite_drops_annotations.py

Before StorageRewrite the buffer is ``T.alloc_buffer((4,), annotations={"device_type": 1})``;
after it the annotations are gone, and LowerTVMBuiltin, which would honour the annotation,
allocates it with ``TVMBackendAllocWorkspace(2, ...)`` (CUDA) while the host stores
``B[0] = 1.0``. With patch 0003 the compile is refused instead ("Variable `B` is directly
accessed by host memory"), which names the wrong cause: the user asked for host memory. Found
while testing 0003. Exit 1 while the annotated buffer is allocated on the device, 0 once it is
host memory.
"""

import sys

import tvm_ffi

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((4,), "float32")):
    T.func_attr({"target": T.target("cuda")})
    B = T.alloc_buffer((4,), "float32", scope="global", annotations={"device_type": 1})
    B[0] = T.float32(1.0)
    for i in T.thread_binding(4, thread="threadIdx.x"):
        A[i] = T.float32(2.0)
    T.evaluate(T.call_packed("f", B.data))


devices = []


@tvm.instrument.pass_instrument
class _Workspaces:
    def run_after_pass(self, mod, info):
        if info.name != "tirx.LowerTVMBuiltin":
            return

        def visit(node):
            op = getattr(node, "op", None)
            if getattr(op, "name", None) == "tirx.TVMBackendAllocWorkspace":
                devices.append(int(node.args[0].value))

        for func in mod.functions.values():
            tvm_ffi.structural_walk(func.body, visit)


try:
    with tvm.transform.PassContext(instruments=[_Workspaces()]):
        tvm.compile(main)
except Exception as err:  # 0003 refuses it
    print(type(err).__name__, str(err).strip().splitlines()[-1][:120])
    sys.exit(1)
print("device types of the host's workspaces:", devices)
sys.exit(1 if 2 in devices else 0)
