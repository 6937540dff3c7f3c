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
"""BF16StorageLegalize leaves a Broadcast of a bfloat16 load typed bfloat16x4: a TypeError."""

import tvm
from tvm.script import tirx as T


@T.prim_func
def vectorized(A: T.Buffer((4,), "bfloat16"), B: T.Buffer((4,), "bfloat16")):
    for i in T.vectorized(4):
        A[i] = B[0]  # VectorizeLoop: A[0:4] = T.Broadcast(B[0], 4)


@T.prim_func
def lowered(a: T.handle("bfloat16")):  # a function as MakePackedAPI leaves it
    T.func_attr({"target": T.target("llvm")})
    A = T.decl_buffer((4,), "bfloat16", data=a)
    A[0:4] = T.Broadcast(A[3], 4)


failed, mod = [], tvm.IRModule({"main": lowered})
runs = {"tvm.compile": lambda: tvm.compile(vectorized, target="llvm")}
runs["BF16StorageLegalize"] = lambda: tvm.tirx.transform.BF16StorageLegalize()(mod)
for name, run in runs.items():
    try:
        run()
        print(f"{name}: ok")
    except TypeError as err:
        print(f"{name}: TypeError: {str(err).splitlines()[0]}")
        failed.append(name)
raise SystemExit("a bfloat16 Broadcast does not get through BF16StorageLegalize" if failed else 0)
