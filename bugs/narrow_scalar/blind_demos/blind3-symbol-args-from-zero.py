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
"""Demo program on which the reference fix and blind3-symbol-args-from-zero differ.

A kernel reads a float32 argument f = 2.5 and an int8 argument x = 3 (kernel parameters A_ptr, f,
x; the launch is call_ffi_kernel("...", A.data, f, x, ...)) (run on pocl): the reference casts x
to int32 at the launch; the wrong fix casts f, the argument before it, to int32 and passes x as
it is."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import compile_and_run, main

OPENCL = True


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((4,), "float32"), f: T.float32, x: T.int8):
        for i in T.thread_binding(4, thread="threadIdx.x"):
            A[i] = f + T.Cast("float32", x)

    return func


def observe(func):
    import numpy as np

    return compile_and_run(func, [np.zeros(4, "float32"), 2.5, 3], [0])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "narrow_scalar", "blind3-symbol-args-from-zero"))
