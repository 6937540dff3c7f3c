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
"""A reshaping T.decl_buffer prints as `A.view(4, 2)`, which parses back with A's layout."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    V = T.decl_buffer((4, 2), "float32", data=A.data)
    A[0] = V[1, 1]


text = main.script()
print(next(line.strip() for line in text.splitlines() if "V =" in line))
back = tvm.script.from_source(text)
layouts = [f.body.seq[0].buffer.layout for f in (main, back)]
print(f"V's layout: {layouts[0]}, after print -> parse: {layouts[1]}")
try:
    tvm.ir.assert_structural_equal(main, back)
except ValueError as err:
    sys.exit(f"print -> parse differs: {str(err).splitlines()[0]}")
print("OK: print -> parse gives the function back")
