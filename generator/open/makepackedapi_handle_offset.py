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
"""Open (apache/tvm 0.27): MakePackedAPI's output does not print back for a tensor argument.

    .venv/bin/python generator/open/makepackedapi_handle_offset.py

MakePackedAPI reads a tensor argument's handle as ``T.if_then_else(type_index == 70,
T.handle_add_byte_offset(...), T.tvm_struct_get(...))``; the parser's ``handle_add_byte_offset``
gives an ``ir.Call`` that ``if_then_else`` refuses ("Expected `ir.Expr` but got `ir.Call`").
Generator class ``f:tirx.MakePackedAPI:reparse:error: Mismatched type on argument #N when
calling: `prim._OpIfThenElse...``. Exit 1 while the defect is there, 0 once it is gone.
"""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((1,), "float32")):
    T.evaluate(A[0])


printed = []


@tvm.instrument.pass_instrument
class Keep:
    def run_after_pass(self, mod, info):
        if info.name == "tirx.MakePackedAPI":
            printed.append(mod.script(show_meta=True))


with tvm.transform.PassContext(instruments=[Keep()]):
    tvm.compile(main, target="llvm")
try:
    tvm.script.from_source(printed[0])
except Exception as err:
    print(f"reproduced: {str(err).splitlines()[0][:160]}")
    sys.exit(1)
print("not reproduced: MakePackedAPI's output parses back")
