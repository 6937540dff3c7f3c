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
"""TVMScript prints an annotated or non-local one-element cell as a plain local scalar."""

import sys

import tvm
import tvm.script
from tvm.script import tirx as T


@T.prim_func
def main(x: T.float32):
    c = T.alloc_local((1,), "float32", annotations={"device_type": 1})  # an annotated cell
    d = T.alloc_buffer((1,), "float32", scope="shared")  # a shared cell
    c[0] = x
    d[0] = x
    T.evaluate(c[0] + d[0])


text = main.script()
print("\n".join(line for line in text.splitlines() if line.startswith("    ")))
try:
    tvm.ir.assert_structural_equal(main, tvm.script.from_source(text))
except ValueError as err:  # the parsed cells are plain local ones
    sys.exit(f"print -> parse is not the identity: {str(err).splitlines()[0]}")
print("OK: both cells round-trip")
