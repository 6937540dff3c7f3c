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
"""narrow_scalar, blind2-webgpu-forgotten: a WebGPU kernel (host llvm) reads an int8 scalar
argument. The reference widens its parameter to int32 (WebGPU kernels are launched by a device
runtime) and casts the launch's argument; the wrong fix leaves both int8."""

import sys

from _split import observe_split

try:  # the apache/tvm line
    from tvm.script import ir as I
    from tvm.script import tirx as T

    LINE = "tvm"
except ImportError:  # the apache/tvm-tirx line (its parser needs T at module level)
    from tvm_tirx.script import tirx as T

    LINE = "tvm_tirx"


def _program_tvm():
    @I.ir_module
    class Mod:
        @T.prim_func
        def main(C: T.Buffer((8,), "int32"), x: T.int8):
            T.func_attr({"target": T.target({"kind": "webgpu", "host": "llvm"})})
            i = T.launch_thread("threadIdx.x", 8)
            C[i] = T.Cast("int32", x) * 2

    return Mod


def _program_tirx():
    @T.ir_module
    class Mod:
        @T.function
        def main(C: T.Tensor((8,), "int32"), x: T.int8):
            T.func_attr({"target": T.target({"kind": "webgpu", "host": "llvm"})})
            with T.launch_thread("threadIdx.x", 8) as i:
                C[i] = T.Cast("int32", x) * 2

    return Mod


def program():
    return _program_tvm() if LINE == "tvm" else _program_tirx()


def observe(mod):
    return observe_split(mod)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
    from harness.blind_demo import main

    sys.exit(main(sys.modules[__name__], "narrow_scalar", "blind2-webgpu-forgotten"))
