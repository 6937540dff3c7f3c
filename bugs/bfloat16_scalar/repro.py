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
"""A bfloat16 scalar argument stops tvm.compile at an internal check of MakePackedAPI."""

import sys

import tvm
from tvm.script import tirx as T

failed = False
for dtype in ("float16", "bfloat16"):  # float16: the control, compiles

    @T.prim_func
    def main(A: T.Buffer((4,), "float32"), x: tvm.tirx.Var("x", dtype)):
        for i in range(4):
            A[i] = T.Cast("float32", x)

    try:
        tvm.compile(main, target="llvm")
        print(f"{dtype}: compiles")
    except Exception as err:  # bfloat16: InternalError ... Check failed: dtype.code() == kDLFloat
        failed = True
        print(f"{dtype}: {type(err).__name__}:", str(err).strip().splitlines()[-1])
if failed:
    sys.exit("a bfloat16 scalar argument does not compile")
print("OK: a bfloat16 scalar argument compiles")
