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
"""Demo program on which the reference fix and blind3-wide-in-body differ.

A kernel squares a float16 argument h = 300 (90000 overflows float16 to inf) and stores it as
float32 (the CUDA source): the reference binds h = Cast(float16, h_wide) at the kernel's entry
and squares in float16; the wrong fix squares the float32 slot."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((4,), "float32"), h: T.float16):
        for i in T.thread_binding(4, thread="threadIdx.x"):
            A[i] = T.Cast("float32", h * h) + T.Cast("float32", i)

    return func


def observe(func):
    """The CUDA kernel's source (pocl's OpenCL compiler here has no float16 arithmetic)."""
    import tvm

    source = tvm.compile(func, target="cuda").mod.imports[0].inspect_source()
    body = source[source.index('extern "C" __global__') :]
    return [x.strip() for x in body.splitlines() if x.strip() and not x.startswith("//")]


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "narrow_scalar", "blind3-wide-in-body"))
