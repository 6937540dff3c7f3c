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
"""Demo program on which the reference fix and blind3-bfloat16-kept differ.

A kernel reads two host scalars, a float16 and a bfloat16 (parameters); the module after
SplitHostDevice for cuda sm_80 (bfloat16 arithmetic: the BF16 passes skip it): the reference
widens both to float32, the wrong fix leaves a bfloat16 parameter, which no runtime can pass."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((8,), "float32"), h: T.float16, b: T.bfloat16):
        for i in T.thread_binding(8, thread="threadIdx.x"):
            A[i] = T.Cast("float32", h) + T.Cast("float32", b)

    return func


def observe(func):
    from _blind3_narrow import after_split, kernel_lines

    return kernel_lines(after_split(func, {"kind": "cuda", "arch": "sm_80"}))


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "narrow_scalar", "blind3-bfloat16-kept"))
