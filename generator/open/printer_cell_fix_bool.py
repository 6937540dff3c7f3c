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
"""Open (the printer_cell reference fix, apache/tvm 0.27): a one-element bool buffer of global
scope prints as ``T.alloc_scalar(T.bool, scope="global")``, which does not parse.

    .venv/bin/python generator/open/printer_cell_fix_bool.py

reference_fixes/printer_cell.py prints such a cell in full (P1) and lets the builder's
``alloc_scalar`` take the ``T.float32``-style constructor the released printer writes (its
stand-in for P2, which prints a dtype string); ``T.bool`` is no ``DtypeConstructor`` in 0.27's
builder (an ``ffi.Function``), so the parser stops ("Expected `ir.PrimType` but got
`ffi.Function`"). A gap of the Python reference fix, not of the C++ blueprint (P2 prints
"bool"). Generator class ``f:tirx.BindTarget:reparse:error: Mismatched type on argument #N
when calling: `script.ir_builder.tirx.Buffer(...``. Exit 1 while it does not parse.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import reference_fixes
import tvm
from tvm.script import tirx as T

reference_fixes.install(["printer_cell"])


@T.prim_func
def main(A: T.Buffer((1,), "bool")):
    v = T.alloc_buffer((1,), "bool", scope="global")
    v[0] = T.bool(True)
    A[0] = v[0]


text = main.script()
try:
    tvm.script.from_source(text)
except Exception as err:
    line = [x.strip() for x in text.splitlines() if "alloc_scalar" in x]
    print(f"reproduced: {line[:1]} does not parse: {str(err).splitlines()[0][-60:]}")
    sys.exit(1)
print("not reproduced: the bool cell prints back")
