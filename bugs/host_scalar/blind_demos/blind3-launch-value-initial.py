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
"""Demo program on which the reference fix and blind3-launch-value-initial differ.

The host updates the cell between two launches; the second kernel must see the updated value (run
on pocl)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import compile_and_run, main

OPENCL = True


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(
        B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32"), D: T.Buffer((4,), "float32")
    ):
        c: T.float32 = T.float32(1.5)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            C[i] = B[i] + c
        c = c + T.float32(2.0)
        for i in T.thread_binding(4, thread="threadIdx.x"):
            D[i] = B[i] + c

    return func


def observe(func):
    import numpy as np

    z = np.zeros(4, "float32")
    return compile_and_run(func, [np.ones(4, "float32"), z, z.copy()], [1, 2])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind3-launch-value-initial"))
