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
"""StorageRewrite strips an allocation used only through a T.address_of view, then fails."""

import re
import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(o: T.Buffer((1,), "float32")):
    v = T.alloc_buffer((4,), "float32")
    v_2 = T.decl_buffer((1,), "float32", data=T.address_of(v[2]))  # a view of v[2]
    v_2[0] = T.float32(1.0)
    o[0] = v_2[0]


try:
    tvm.compile(main, target="llvm")  # a CPU program: no device involved
except tvm.error.InternalError as err:
    last = re.sub(r" \(0x[0-9a-f]+\)", "", str(err).strip().splitlines()[-1])  # the address
    sys.exit(f"tvm.compile(llvm) failed: {last}")
print("OK: a buffer used only through its view compiles")
