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
"""SplitHostDevice writes its result into the module it was given."""

import sys

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Before:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((8,), "float32")):  # as the pipeline hands it to SplitHostDevice
        T.func_attr({"target": T.target("cuda", host="llvm")})
        T.attr(T.target("cuda"), "target", 0)  # the device region
        i = T.launch_thread("threadIdx.x", 8)
        A[i] = A[i] + T.float32(1)


copy = Before.clone()
After = tvm.tirx.transform.SplitHostDevice()(Before)
print("After: ", sorted(gv.name_hint for gv in After.get_global_vars()))
print("Before:", sorted(gv.name_hint for gv in Before.get_global_vars()))
try:
    tvm.ir.assert_structural_equal(Before, copy)
except ValueError as err:
    sys.exit(f"SplitHostDevice changed its input module: {str(err).splitlines()[0]}")
print("OK: the input module is unchanged")
