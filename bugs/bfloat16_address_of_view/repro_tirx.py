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
"""tvm-tirx: a bfloat16 tensor read through a T.address_of view reads the bits of a float32."""

import sys

import tvm_tirx
from tvm_tirx.script import tirx as T


def function(at):  # o[0] = w[0], w the view of v at at(v)
    @T.function
    def main(o: T.Tensor((1,), "bfloat16")):
        v = T.alloc_tensor(ty_args=[T.Tensor((1,), "bfloat16")])
        v[0] = T.bfloat16(2.0)
        w = T.decl_tensor(at(v), ty_args=[T.Tensor((1,), "bfloat16")])
        o[0] = w[0]

    return main


wrong = []
VIEWS = {"data": lambda v: v.data, "address_of": lambda v: T.address_of(v[0])}
for view, at in VIEWS.items():  # data: the control, reads 2.0
    o = tvm_tirx.runtime.empty((1,), "bfloat16")
    tvm_tirx.tirx.compile(function(at), target="llvm")["main"](o)
    print(f"view at {view}: o[0] = {float(o.numpy()[0])}")
    if float(o.numpy()[0]) != 2.0:
        wrong.append(view)
if wrong:
    sys.exit("BF16ComputeLegalize moved the tensor to float32; its view still reads bfloat16")
print("OK: both views read 2.0")
