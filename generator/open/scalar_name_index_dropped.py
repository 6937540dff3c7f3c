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
"""Open (apache/tvm 0.27): a one-element buffer the printer writes as a scalar name loses a
non-constant index.

    .venv/bin/python generator/open/scalar_name_index_dropped.py

A one-element ``T.decl_buffer`` over a pointer parameter prints as ``T.decl_scalar(...)`` (a
scalar name, on the wheel and under patch 0008 alike); a store ``B[t] = v`` with ``t`` a
thread variable of extent 1 then prints as ``B = v`` and parses back as ``B[0] = v``: print ->
parse differs at the store's ``indices``. The meaning is the same (a one-element buffer has one
index in bounds), the structure is not. Generator classes
``f:tirx.BindTarget:differs:kernel:indices`` / ``...:main:indices`` (programs with
``index_var``). Exit 1 while the defect is there, 0 once it is gone.
"""

import sys

import tvm_ffi

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

TEXT = """@I.ir_module
class Module:
    @T.prim_func(private=True)
    def w(a: T.handle("float32", "global")):
        T.func_attr({"target": T.target("cuda")})
        B = T.decl_buffer((1,), "float32", data=a)
        t = T.launch_thread("threadIdx.x", 1)
        B[t] = T.float32(2.0)
"""

extra = {"T": T, "I": I, "tvm": tvm}
mod = tvm.script.from_source(TEXT, extra_vars=extra)
back = tvm.script.from_source(mod.script(show_meta=True), extra_vars=extra)
where = tvm_ffi.get_first_structural_mismatch(mod, back, map_free_vars=True)
if where is not None:
    print(f"PRESENT: print -> parse differs at {where[0]}")
    sys.exit(1)
print("FIXED: the store keeps its index")
sys.exit(0)
