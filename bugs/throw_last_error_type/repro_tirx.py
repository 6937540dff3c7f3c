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
"""tvm-tirx: MakePackedAPI types throw_last_error int32, and its TVMScript parses back as void."""

import sys

import tvm_tirx
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx import transform


@T.function
def main(A: T.Tensor((1,), "float32"), x: T.float32):
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})})
    with T.launch_thread("threadIdx.x", 1):
        A[0] = x


after = transform.MakePackedAPI()(transform.SplitHostDevice()(tvm_tirx.IRModule({"main": main})))
text = after.script()
print("\n".join(line.strip() for line in text.splitlines() if "status" in line or "throw" in line))
back = tvm_tirx.script.from_source(text, extra_vars={"T": T})
try:
    tvm_tirx.ir.assert_structural_equal(after, back)
except ValueError as err:
    sys.exit(f"print -> parse differs: {str(err).splitlines()[0]}")
print("OK: MakePackedAPI's output prints back")
