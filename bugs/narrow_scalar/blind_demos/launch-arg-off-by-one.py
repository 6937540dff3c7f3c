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
"""narrow_scalar, blind2-launch-arg-off-by-one: ``C[i] = x + int(a * 10)`` on OpenCL threads,
with a float32 scalar ``a`` and an int8 scalar ``x`` (kernel parameters ``A_ptr, a, x``).
The wrong fix casts the argument before ``x`` (``a``: 2.5 -> 2) and passes ``x`` as it is;
on the tvm-tirx line the launch's IR after SplitHostDevice is compared."""

import importlib.util
import sys

OPENCL = importlib.util.find_spec("tvm") is not None  # the apache/tvm line runs it on pocl


def program():
    from harness.tvm_line import LINE

    if LINE == "tvm":
        from tvm.script import tirx as T

        @T.prim_func
        def main(C: T.Buffer((8,), "int32"), a: T.float32, x: T.int8):
            for i in T.thread_binding(8, thread="threadIdx.x"):
                C[i] = T.Cast("int32", x) + T.Cast("int32", a * T.float32(10))

        return main
    from tvm_tirx.script import tirx as T

    @T.function
    def main(C: T.Tensor((8,), "int32"), a: T.float32, x: T.int8):
        with T.launch_thread("threadIdx.x", 8) as i:
            C[i] = T.Cast("int32", x) + T.Cast("int32", a * T.float32(10))

    return main


def observe(func):
    from harness.tvm_line import LINE

    if LINE == "tvm":
        import numpy as np

        sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
        from harness.blind_demo import compile_and_run

        return compile_and_run(func, [np.zeros(8, "int32"), 2.5, -3], [0])
    import tvm_tirx

    tgt = tvm_tirx.target.Target("opencl", host="llvm")
    mod = tvm_tirx.IRModule({"main": func.with_attr("target", tgt)})
    mod = tvm_tirx.tirx.transform.SplitHostDevice()(mod)
    return "\n".join(x for x in mod.script().splitlines() if "call_ffi_kernel" in x or "def " in x)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
    from harness.blind_demo import main

    sys.exit(main(sys.modules[__name__], "narrow_scalar", "blind2-launch-arg-off-by-one"))
