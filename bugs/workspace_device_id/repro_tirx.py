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
"""tvm-tirx: a host workspace stops compile at a failed check without a tensor parameter."""

import tvm_tirx
from tvm_tirx.script import tirx as T


@T.function
def main(n: T.int32) -> T.float32:
    B = T.alloc_tensor(ty_args=[T.Tensor((n,), "float32")])  # dynamic size: a workspace
    for i in range(n):
        B[i] = T.float32(1)
    return B[n - 1]


@T.function
def with_tensor(n: T.int32, A: T.Tensor((1,), "float32")) -> T.float32:
    B = T.alloc_tensor(ty_args=[T.Tensor((n,), "float32")])  # the same, beside an unused A
    for i in range(n):
        B[i] = T.float32(1)
    return B[n - 1]


tvm_tirx.tirx.compile(with_tensor, target="llvm")
print("with_tensor: compiled")
try:
    f = tvm_tirx.tirx.compile(main, target="llvm")
except Exception as err:
    first = str(err).strip().splitlines()[0]
    raise SystemExit(f"tvm_tirx.tirx.compile(main): {type(err).__name__}: {first}") from None
print("main: compiled, main(5) =", f["main"](5))
