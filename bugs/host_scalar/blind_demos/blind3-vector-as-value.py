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
"""Demo program on which the reference fix and blind3-vector-as-value differ.

A one-element float32x4 cell that the host code stores and a kernel loads whole into a vector
store. The reference rejects it at compile time (a launch passes scalars only); the wrong fix
makes it a float32x4 kernel parameter, which the runtime cannot pass (run on pocl)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import compile_and_run, main

OPENCL = True


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(C: T.Buffer((8,), "float32")):
        c = T.alloc_buffer((1,), "float32x4", scope="local")
        c[0] = T.Broadcast(T.float32(1.5), 4)
        for i in T.thread_binding(2, thread="threadIdx.x"):
            C[T.Ramp(i * 4, 1, 4)] = c[0]

    return func


def observe(func):
    import numpy as np

    return compile_and_run(func, [np.zeros(8, "float32")], [0])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "host_scalar", "blind3-vector-as-value"))
