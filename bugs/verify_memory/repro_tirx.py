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
"""tvm-tirx: compile for cuda accepts a loop bound to no GPU thread (VerifyMemory is silent)."""

import sys

import tvm_tirx
from tvm_tirx.script import tirx as T


@T.function
def main(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
    for i in range(8):  # in no launch_thread region: host code over two device tensors
        C[i] = B[i] + T.float32(1)


target = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})  # compiles without a GPU
try:
    tvm_tirx.tirx.compile(main, target=target)
except Exception as err:  # VerifyMemory: "Variable `C` is directly accessed by host memory ..."
    if "directly accessed by host memory" not in str(err):
        raise
    print("OK:", next(x for x in str(err).splitlines() if "directly accessed" in x).strip())
    sys.exit(0)
sys.exit("tvm_tirx.tirx.compile(cuda) accepted a loop bound to no thread over device tensors")
