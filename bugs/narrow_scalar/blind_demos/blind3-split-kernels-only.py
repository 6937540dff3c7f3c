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
"""Demo program on which the reference fix and blind3-split-kernels-only differ.

The host function launches a kernel written as a module function, kern(A_ptr, x: int8), with x =
-5 (run on pocl): the reference widens that kernel's int8 parameter too; the wrong fix leaves it,
and the runtime refuses the launch."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main, run_opencl

OPENCL = True


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
            for i in T.thread_binding(4, thread="threadIdx.x"):
                A[i] = T.Cast("int32", x) * (i + 1)

    host = tvm.target.Target("opencl", host="llvm")
    device = tvm.target.Target("opencl")
    return tvm.IRModule(
        {
            gvar: func.with_attr("target", host if gvar.name_hint == "main" else device)
            for gvar, func in Module.functions.items()
        }
    )


def observe(mod):
    import numpy as np

    import tvm

    lib = tvm.compile(mod, target=tvm.target.Target("opencl", host="llvm"))
    return run_opencl(lib, [np.zeros(4, "int32"), -5], [0])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "narrow_scalar", "blind3-split-kernels-only"))
