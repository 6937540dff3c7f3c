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
"""Open (apache/tvm 0.27, released and under the reference fixes): a bfloat16 buffer that one
kernel writes and another reads through a ``T.address_of`` view is lowered to two element
types, for a target without bfloat16 arithmetic.

    .venv/bin/python generator/open/bfloat16_address_of_alias.py

For opencl (or webgpu) the writer kernel gets ``float* v0_ptr`` and stores 2.0f, the reader
``ushort* v0_a_ptr`` and reads bfloat16 bits: on pocl the reader sees 0.0 where the host expects
2.0 (generator class ``c:device-wrong-value:shared:address_of``, ``c:wrong-value:...`` by the
replay). The same buffer read through ``T.decl_buffer(data=v0.data)`` is lowered alike in both
kernels. Not a host-scalar bug (no bfloat16 scalar on the host; patch 0009 does not touch
it); found by a campaign of seed 5. Exit 1 while the two kernels disagree, 0 once they agree.
"""

import sys

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

TEXT = """@I.ir_module
class Module:
    @T.prim_func
    def main(o: T.Buffer((1,), "bfloat16")):
        T.func_attr({"tirx.noalias": True})
        v0 = T.alloc_local((1,), "bfloat16")
        for t in T.thread_binding(1, thread="threadIdx.x"):
            v0[0] = T.bfloat16(2.0)
        v0_a = T.decl_buffer((1,), "bfloat16", data=T.address_of(v0[0]), scope="local")
        for t in T.thread_binding(1, thread="threadIdx.x"):
            o[0] = v0_a[0]
"""

last = []


@tvm.instrument.pass_instrument
class Keep:
    def run_after_pass(self, mod, info):
        if any(f.attrs is not None and "calling_conv" in f.attrs for f in mod.functions.values()):
            last[:] = [mod]


mod = tvm.script.from_source(TEXT, extra_vars={"T": T, "I": I, "tvm": tvm})
with tvm.transform.PassContext(instruments=[Keep()]):
    tvm.compile(mod, target="opencl")
element = {}
for gv, func in last[0].functions.items():
    if func.attrs is not None and int(func.attrs.get("calling_conv", 0)) == 2:
        for param in func.params:
            if param.name.startswith("v0"):
                element[gv.name_hint] = str(param.ty.element_type)
if len(set(element.values())) > 1:
    print(f"PRESENT: the kernels see the buffer as {element}")
    sys.exit(1)
print(f"FIXED: one element type {element}")
sys.exit(0)
