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
"""A host view at address_of(A[B[0]]) that only the kernel reads: the host reads the device
buffer B in the index of the address. Compiled for cuda: rejected, or accepted."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from harness.tvm_line import LINE

    if LINE == "tvm_tirx":
        return _program_tirx()
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((8,), "float32"), B: T.Buffer((1,), "int32")):
        V = T.decl_buffer((4,), "float32", data=T.address_of(A[B[0]]))
        for bx in T.thread_binding(1, thread="blockIdx.x"):
            for tx in T.thread_binding(4, thread="threadIdx.x"):
                V[tx] = V[tx] + T.float32(1)

    return func


def _program_tirx():
    from tvm_tirx.script import tirx as T

    @T.function
    def func(A: T.Tensor((8,), "float32"), B: T.Tensor((1,), "int32")):
        V = T.decl_tensor(T.address_of(A[B[0]]), ty_args=[T.Tensor((4,), T.float32)])
        with T.launch_thread("threadIdx.x", 4) as tx:
            V[tx] = V[tx] + T.float32(1)

    return func


def observe(func):
    from harness.tvm_line import LINE

    try:
        if LINE == "tvm":
            import tvm

            tvm.compile(func, target="cuda")  # no GPU needed: CUDA source only
        else:
            import tvm_tirx

            tvm_tirx.tirx.compile(
                func, target=tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})
            )
    except Exception as err:
        lines = [x.strip() for x in str(err).splitlines() if x.strip()]
        said = [x for x in lines if "directly accessed" in x or "Error" in x or "used" in x]
        return f"rejected: {type(err).__name__}: {(said or lines)[0][:200]}"
    return "compiled"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "verify_memory", "blind2-address-of-skipped"))
