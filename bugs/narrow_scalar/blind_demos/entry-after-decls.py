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
"""narrow_scalar, blind2-entry-after-decls: a kernel whose buffer's shape is an int16 argument n,
which the kernel also reads (if i < n). The reference binds n = int16(n_wide) first, before
the kernel's buffer declaration that uses n; the wrong fix binds it after the declaration,
which then uses n before its definition (not well-formed)."""

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
        def main(a: T.handle, n: T.int16):
            T.func_attr({"target": T.target({"kind": "opencl", "host": "llvm"})})
            A = T.match_buffer(a, (n,), "int32")
            i = T.launch_thread("threadIdx.x", 8)
            if i < T.Cast("int32", n):
                A[i] = i

    return Mod


def _program_tirx():
    # no match_tensor here: the kernel is a module function whose view's shape is n
    @T.ir_module
    class Mod:
        @T.function
        def main(A: T.Tensor((8,), "int32"), n: T.int16):
            T.func_attr({"target": T.target("llvm")})
            Mod.kernel(A.data, n)

        @T.function
        def kernel(A_ptr: T.Ptr(T.int32), n: T.int16):
            T.func_attr({"target": T.target("opencl")})
            A = T.decl_tensor(A_ptr, ty_args=[T.Tensor((n,), T.int32)])
            with T.launch_thread("threadIdx.x", 8) as i:
                if i < T.Cast("int32", n):
                    A[i] = i

    return Mod


def program():
    return _program_tvm() if LINE == "tvm" else _program_tirx()


def observe(mod):
    return observe_split(mod)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
    from harness.blind_demo import main

    sys.exit(main(sys.modules[__name__], "narrow_scalar", "blind2-entry-after-decls"))
