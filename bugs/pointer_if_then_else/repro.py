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
"""MakePackedAPI's output for a tensor argument does not parse back: T.if_then_else of handles."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((2,), "float32")):
    T.func_attr({"target": T.target({"kind": "llvm", "host": "llvm"})})
    A[0] = T.float32(1)


mod = tvm.tirx.transform.MakePackedAPI()(tvm.IRModule({"main": main}))
text = mod.script(show_meta=True)
print(next(line.strip() for line in text.splitlines() if "handle_add_byte_offset" in line))
try:
    tvm.script.from_source(text)
except Exception as err:  # the parser's DiagnosticError
    sys.exit(f"print -> parse fails: {str(err).strip().splitlines()[0]}")
print("OK: MakePackedAPI's output parses back")
