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
"""InjectDoubleBuffer stops at an internal check in tvm.compile: the scope names a stale buffer."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func(s_tir=True)
def main(A: T.Buffer((400,), "float32"), C: T.Buffer((4,), "float32")):
    for tx in T.thread_binding(1, thread="threadIdx.x"):
        for i in range(100):
            B = T.alloc_buffer((4,), "float32", scope="shared")
            with T.attr(B.data, "double_buffer_scope", 1):
                for j in range(4):
                    B[j] = A[i * 4 + j]
            for j in range(4):
                C[j] = B[j] + T.float32(1.0)


try:
    tvm.compile(main, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))
except tvm.error.InternalError as err:
    sys.exit(f"tvm.compile failed: {str(err).strip().splitlines()[-1]}")
print("OK: the double-buffered kernel compiles")
