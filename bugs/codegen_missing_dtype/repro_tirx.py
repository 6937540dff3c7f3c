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
"""tvm-tirx: WebGPU and Metal refuse a dtype they lack with an internal error, not a user error."""

import sys

import tvm_tirx
from tvm_tirx.script import tirx as T


def kernel(dtype):
    @T.function
    def main(A: T.Tensor((1,), dtype), n: T.int32):
        with T.launch_thread("threadIdx.x", 1):
            A[0] = T.Cast(dtype, n)

    return main


internal = 0
for target, dtype in [("webgpu", "int64"), ("webgpu", "float64"), ("metal", "float64")]:
    try:
        tvm_tirx.tirx.compile(kernel(dtype), target=target)
        print(f"{target} {dtype}: compiles")
    except (ValueError, TypeError) as err:  # a user-facing refusal is what the fix gives
        print(f"{target} {dtype}: {type(err).__name__}: {str(err).strip().splitlines()[0]}")
    except RuntimeError as err:  # a failed internal check: WGSL has no 64-bit types, Metal no f64
        internal += 1
        print(f"{target} {dtype}: {type(err).__name__}: {str(err).strip().splitlines()[0]}")
sys.exit(1 if internal else 0)
