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
"""tvm-tirx: a float32 NaN stored into a bfloat16 tensor comes out as a number."""

import sys

import tvm_tirx
from tvm_tirx.script import tirx as T


@T.function
def main(x: T.int32, B: T.Tensor((1,), "bfloat16")):
    B[0] = T.Cast("bfloat16", T.reinterpret(x, ty=T.float32))  # the float32 whose bits are x


lib = tvm_tirx.tirx.compile(main, target="llvm")["main"]
b = tvm_tirx.runtime.empty((1,), "bfloat16")
lost = []
for bits in (0x7FC00000, 0x7FFFFFFF, -1, 0x7F800001):  # four NaNs; the first: the control
    lib(bits, b)
    value, stored = float(b.numpy()[0]), int(b.numpy().view("uint16")[0])
    print(f"NaN {bits & 0xFFFFFFFF:#010x} -> bfloat16 {stored:#06x} = {value}")
    if value == value:  # not a NaN
        lost.append(value)
if lost:
    sys.exit(f"a NaN stored into a bfloat16 tensor became {lost}")
print("OK: every NaN stays a NaN")
