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
"""A global buffer the host allocates, annotated device_type 2 (kDLCUDA: device memory), that the
host writes and a kernel reads, for cuda with an llvm host: what verify_memory says."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from harness.tvm_line import LINE

    if LINE == "tvm_tirx":
        return _program_tirx()
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((8,), "float32")):
        S = T.alloc_buffer((8,), "float32", scope="global", annotations={"device_type": 2})
        S[0] = T.float32(1)  # host store into a device allocation
        tx = T.launch_thread("threadIdx.x", 8)  # the kernel, as lowering leaves it
        A[tx] = S[0]

    return func


def _program_tirx():
    from tvm_tirx.script import tirx as T

    @T.function
    def func(A: T.Tensor((8,), "float32")):
        S = T.alloc_tensor(ty_args=[T.Tensor((8,), T.float32)], attrs={"device_type": 2})
        S[0] = T.float32(1)  # host store into a device allocation
        with T.launch_thread("threadIdx.x", 8) as tx:
            A[tx] = S[0]

    return func


def observe(func):
    from harness.tvm_line import LINE, ir

    # the function as a GPU entry point with an llvm host, as the verifier sees it
    if LINE == "tvm":
        import tvm

        target = tvm.target.Target("cuda", host="llvm")
    else:
        import tvm_tirx

        target = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})
    return f"verify_memory: {ir.analysis.verify_memory(func.with_attr('target', target))}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "verify_memory", "blind2-device-type-presence"))
