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
"""LowerIket writes into the module it was given, and into the function map it iterates."""

import tvm
from tvm.backend.cuda.transforms import LowerIket
from tvm.script import tirx as T


@T.prim_func(private=True)
def kernel(A: T.Buffer((32,), "int32")):  # a CUDA kernel as SplitHostDevice leaves it
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a"}), "calling_conv": 2})
    tx = T.launch_thread("threadIdx.x", 32)
    T.cuda.iket.mark("store")
    A[tx] = A[tx] + 1


# five kernels; two modules built alike (a clone of Before would share its function map)
Before, copy = [tvm.IRModule({f"kernel_{k}": kernel for k in range(5)}) for _ in "ab"]
After = LowerIket()(Before)  # no IKET run: the pass strips the marks
marked = sorted(gv.name_hint for gv, func in After.functions.items() if "iket" in func.script())
print("kernels still marked after LowerIket:", marked)
try:
    tvm.ir.assert_structural_equal(Before, copy)
except ValueError as err:
    raise SystemExit(f"LowerIket changed its input module: {str(err).splitlines()[0]}")
if marked:
    raise SystemExit("LowerIket left IKET marks in the module it returned")
print("OK: the input module is unchanged and every kernel is stripped")
