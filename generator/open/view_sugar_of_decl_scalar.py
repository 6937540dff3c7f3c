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
"""Open (apache/tvm 0.27 and the base commit): a one-element ``T.decl_scalar`` view of a
parameter prints as ``A.view(1)``, which parses back with another layout.

    .venv/bin/python generator/open/view_sugar_of_decl_scalar.py

``v = T.decl_scalar(T.float32, data=A.data, elem_offset=0, scope="global")`` over an 8-element
parameter ``A`` prints through the view sugar ``v = A.view(1)``; parsed back, the view's
layout has another extent: print -> parse differs at ``buffer.ty.layout.shard[0].extent``.
Released, the text does not parse at all (``v`` is printed bare, the printer_param_data
report); under patch 0008 and its reference fix it parses and differs. Found by the
differential run (generator/differential.py): under the reference fixes a module that also
holds a cell the scalar sugar cannot express prints without any sugar (printer_cell's stand-in
for 0005), so only the patched build showed it there. Exit 1 while the defect is there, 0 once
it is gone.
"""

import sys

import tvm_ffi

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

TEXT = """@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        v = T.decl_scalar(T.float32, data=A.data, elem_offset=0, scope="global")
        A[1] = v
"""

extra = {"T": T, "I": I, "tvm": tvm}
mod = tvm.script.from_source(TEXT, extra_vars=extra)
text = mod.script(show_meta=True)
try:
    back = tvm.script.from_source(text, extra_vars=extra)
except Exception as err:  # released: the bare name does not parse
    print(f"PRESENT: the printed text does not parse ({type(err).__name__})")
    sys.exit(1)
where = tvm_ffi.get_first_structural_mismatch(mod, back, map_free_vars=True)
if where is not None:
    print(f"PRESENT: print -> parse differs at {where[0]}")
    sys.exit(1)
print("FIXED: the view keeps its layout")
sys.exit(0)
