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
"""Open (apache/tvm-tirx 0.1.0a4): ``T.throw_last_error()`` parses back without its int32 type.

    .venv-tirx/bin/python generator/open/tirx_throw_last_error_type.py

MakePackedAPI (and LowerTVMBuiltin after it) write ``if status != 0: T.throw_last_error()``
with the call typed int32; the printer writes ``T.throw_last_error()``, which parses back as a
call of another type, so print -> parse differs at ``...then_case.seq[0].value.ty.dtype``
for every function with a kernel launch. Generator classes
``f:tirx.MakePackedAPI:differs:main:dtype`` and ``f:tirx.LowerTVMBuiltin:differs:main:dtype``.
Exit 1 while the defect is there, 0 once it is gone.
"""

import sys

import tvm_tirx
from tvm_tirx.ir import transform
from tvm_tirx.script import tirx as T


@T.function
def main(A: T.Tensor((1,), "float32"), x: T.float32):
    with T.launch_thread("threadIdx.x", 1):
        A[0] = x


kept = []


@transform.pass_instrument
class Keep:
    def run_after_pass(self, mod, info):
        if info.name == "tirx.MakePackedAPI":
            kept.append(mod)


with transform.PassContext(instruments=[Keep()]):
    tvm_tirx.tirx.compile(main, target=tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"}))
text = kept[0].script(show_meta=True)
back = tvm_tirx.script.from_source(text, extra_vars={"T": T, "tvm": tvm_tirx})
try:
    tvm_tirx.ir.assert_structural_equal(kept[0], back, map_free_vars=True)
except ValueError as err:
    where = str(err).splitlines()[0]
    printed = "T.throw_last_error()" in text
    print(f"reproduced (T.throw_last_error() printed: {printed}): {where}")
    sys.exit(1)
print("not reproduced: MakePackedAPI's output prints back")
