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
"""Demo program on which the reference fix and blind3-case-fallthrough differ.

A kernel stores a uint64 argument x = 2**40 + 3 plus its thread index (run on pocl): the wrong
fix's new case falls through into INT64_TO_INT32, which points the argument at a 32-bit holder."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

from harness.blind_demo import main


def program():
    from tvm.script import tirx as T

    @T.prim_func
    def func(A: T.Buffer((4,), "uint64"), x: T.uint64):
        for i in T.thread_binding(4, thread="threadIdx.x"):
            A[i] = x + T.Cast("uint64", i)

    return func


def observe(func):
    """Launch on pocl with the runtime the fix under test selected (loaded after it)."""
    import os

    import numpy as np
    from _harness import run_opencl

    import tvm
    from harness.reference_fixes import opencl_runtime

    # a variant is built where it is first loaded, from TVM's sources at the base commit
    mirror = "/work/.mirror/apache+tvm/repo"
    if os.path.isdir(mirror):
        os.environ.setdefault("TVM_GIT", mirror)
    reason = opencl_runtime().load()
    if reason:
        return reason
    lib = tvm.compile(func, target=tvm.target.Target("opencl", host="llvm"))
    return run_opencl(lib, [np.zeros(4, "uint64"), 2**40 + 3], [0])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "uint64_scalar", "blind3-case-fallthrough"))
