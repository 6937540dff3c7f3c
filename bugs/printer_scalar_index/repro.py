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
"""A one-element buffer printed as a scalar name loses a non-zero index of a store and a load."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(a: T.handle("float32", "global"), n: T.int32):
    B = T.decl_buffer((1,), "float32", data=a)
    for i in range(n):
        B[i] = B[i] + T.float32(1)


text = main.script()
print("\n".join(line for line in text.splitlines() if "B" in line))
try:
    tvm.ir.assert_structural_equal(main, tvm.script.from_source(text))
except Exception as err:  # a ValueError naming where they differ
    sys.exit(f"print -> parse differs: {str(err).splitlines()[0]}")
print("OK: print -> parse gives the function back")
