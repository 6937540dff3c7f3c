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
"""A host workspace buffer stops tvm.compile at an internal check without a tensor parameter."""

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(n: T.int32) -> T.float32:
    B = T.alloc_buffer((n,), "float32")  # dynamic size: a workspace, not a stack array
    for i in range(n):
        B[i] = T.float32(1)
    return B[n - 1]


@T.prim_func
def with_tensor(n: T.int32, A: T.Buffer((1,), "float32")) -> T.float32:
    B = T.alloc_buffer((n,), "float32")  # the same, beside an unused tensor parameter
    for i in range(n):
        B[i] = T.float32(1)
    return B[n - 1]


tvm.compile(with_tensor, target="llvm")
print("with_tensor: compiled")
try:
    f = tvm.compile(main, target="llvm")
except Exception as err:
    last = str(err).strip().splitlines()[-1]
    raise SystemExit(f"tvm.compile(main): {type(err).__name__}: {last}") from None
print("main: compiled, main(5) =", f["main"](5))
