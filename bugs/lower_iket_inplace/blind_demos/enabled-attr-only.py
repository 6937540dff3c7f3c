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
"""Two marked kernels, no module attribute, run in a verified run-iket child's environment
(the four variables set): the event ids the instrumented kernels get."""

import os
import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main

SM90 = {"kind": "cuda", "arch": "sm_90a"}


def program():
    from harness.tvm_line import LINE

    if LINE == "tvm_tirx":
        return _program_tirx()
    import tvm
    from tvm.script import tirx as T

    def kernel(tag):
        @T.prim_func(private=True)
        def func(A: T.Buffer((32,), "int32")):
            T.func_attr({"target": T.target(SM90), "calling_conv": 2})
            tx = T.launch_thread("threadIdx.x", 32)
            T.cuda.iket.mark(tag)
            A[tx] = A[tx] + 1

        return func

    return tvm.IRModule({"ka": kernel("a"), "kb": kernel("b")}, attrs=None)


def _program_tirx():
    import tvm_tirx
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((32,), "int32")):  # two kernels, marked "a" and "b"
        T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_90a", "host": "llvm"})})
        with T.launch_thread("threadIdx.x", 32):
            T.cuda.iket_mark("a")
        with T.launch_thread("threadIdx.x", 32):
            T.cuda.iket_mark("b")

    mod = tvm_tirx.tirx.transform.SplitHostDevice()(tvm_tirx.IRModule({"main": main}))
    attrs = None
    return mod if attrs is None else type(mod)(mod.functions, attrs=attrs)


def observe(mod):
    from harness.tvm_line import LINE

    if LINE == "tvm":
        from tvm.backend.cuda.transforms import LowerIket
    else:
        from tvm_tirx.backend.cuda.transform import LowerIket

    os.environ.update(
        {
            "TVM_IKET_INJECTED_CHILD_ENABLE": "1",
            "TVM_IKET_OFFICIAL_PROFILE": "cutlass-4.6.0",
            "CUDA_INJECTION64_PATH": "/nonexistent/libinjection.so",
            "SMODEL_INJECTION_CONFIG": "/nonexistent/config.json",
        }
    )
    out = LowerIket()(mod)
    return [
        (gv.name_hint, line.strip())
        for gv, func in sorted(out.functions.items(), key=lambda x: x[0].name_hint)
        for line in func.script().splitlines()
        if "iket" in line
    ]


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "lower_iket_inplace", "blind2-enabled-attr-only"))
