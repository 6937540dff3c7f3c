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
"""tvm-tirx: LowerIket writes into the IRModule it was given and the function map it iterates."""

import tvm_tirx
from tvm_tirx.backend.cuda.transform import LowerIket
from tvm_tirx.script import tirx as T


@T.function
def main(A: T.Tensor((32,), "int32")):  # three kernels, each with an IKET mark
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a", "host": "llvm"})})
    with T.launch_thread("threadIdx.x", 32):
        T.cuda.iket_mark("first")
    with T.launch_thread("threadIdx.x", 32):
        T.cuda.iket_mark("second")
    with T.launch_thread("threadIdx.x", 32):
        T.cuda.iket_mark("third")


split = tvm_tirx.tirx.transform.SplitHostDevice()  # twice: a clone would share Before's map
Before, copy = [split(tvm_tirx.IRModule({"main": main})) for _ in "ab"]
After = LowerIket()(Before)  # no IKET run: the pass strips the marks
marked = sorted(gv.name_hint for gv, func in After.functions.items() if "iket" in func.script())
print("kernels still marked after LowerIket:", marked)
try:
    tvm_tirx.ir.assert_structural_equal(Before, copy)
except ValueError as err:
    raise SystemExit(f"LowerIket changed its input IRModule: {str(err).splitlines()[0]}")
if marked:
    raise SystemExit("LowerIket left IKET marks in the IRModule it returned")
print("OK: the input IRModule is unchanged and every kernel is stripped")
