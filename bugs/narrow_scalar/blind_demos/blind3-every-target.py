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
"""Demo program on which the reference fix and blind3-every-target differ.

A CUDA function's host code launches a module function whose target is the CPU (llvm) and which
opens a thread environment, kern(A_ptr, x: int8): LowerDeviceKernelLaunches makes it a kernel
called as a function, which keeps its narrow parameters. The module after SplitHostDevice: the
reference leaves x int8; the wrong fix widens it to int32 and casts the argument, though no
device runtime packs this call."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    import tvm
    from tvm.script import ir as I
    from tvm.script import tirx as T

    @I.ir_module
    class Module:
        @T.prim_func
        def main(A: T.Buffer((4,), "int32"), x: T.int8):
            Module.kern(A.data, x)

        @T.prim_func(private=True)
        def kern(A_ptr: T.handle("int32"), x: T.int8):
            A = T.decl_buffer((4,), "int32", data=A_ptr)
            with T.launch_thread("threadIdx.x", 4) as i:
                A[i] = T.Cast("int32", x) * (i + 1)

    host = tvm.target.Target("cuda", host="llvm")
    device = tvm.target.Target("llvm")
    return tvm.IRModule(
        {
            gvar: func.with_attr("target", host if gvar.name_hint == "main" else device)
            for gvar, func in Module.functions.items()
        }
    )


def observe(mod):
    import tvm

    out = tvm.tirx.transform.SplitHostDevice()(mod)
    lines = []
    for _gvar, func in out.functions.items():
        text = func.script().splitlines()
        lines += [x.strip() for x in text if "def " in x or "kern" in x or ": T.let[" in x]
    return sorted(lines)


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "narrow_scalar", "blind3-every-target"))
