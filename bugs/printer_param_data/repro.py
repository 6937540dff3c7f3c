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
"""A one-element buffer parameter prints through the scalar shorthand, which does not parse."""

import sys

import tvm
import tvm.script
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((1,), "float32"), C: T.Buffer((1,), "float32")):
    A_1 = T.decl_buffer((1,), data=A.data, layout=None)  # as FlattenBuffer writes it
    C[0] = A_1[0] + A[0]


text = main.script()
print("\n".join(text.splitlines()[-2:]))
try:
    tvm.ir.assert_structural_equal(main, tvm.script.from_source(text))
except Exception as err:  # the parser's error: 'Var' object has no attribute 'source'
    sys.exit(f"print -> parse fails: {str(err).strip().splitlines()[0]}")
print("OK: print -> parse gives the function back")
