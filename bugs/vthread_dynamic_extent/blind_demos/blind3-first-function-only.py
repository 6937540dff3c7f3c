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
"""Demo program on which the reference fix and blind3-first-function-only differ.

A module of two functions run through InjectVirtualThread: `a` has a constant virtual thread
(extent 2), `b` one whose extent is read from a buffer (L[0]). The reference fix refuses `b` with
the ValueError; the wrong fix checks `a` only and the released pass dies by SIGSEGV on `b`."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tvm
from harness.blind_demo import main
from tvm.script import tirx as T


def program():
    @T.prim_func
    def a(A: T.Buffer((8,), "float32")):
        with T.launch_thread("vthread", 2) as vthread:
            threadIdx_x = T.launch_thread("threadIdx.x", 4)
            A[vthread * 4 + threadIdx_x] = T.float32(1)

    @T.prim_func
    def b(L: T.Buffer((1,), "int32"), B: T.Buffer((64,), "float32")):
        with T.launch_thread("vthread", L[0]) as vthread:  # noqa: F841 (the launch binds it)
            threadIdx_x = T.launch_thread("threadIdx.x", 8)
            B[threadIdx_x] = T.float32(1)

    return tvm.IRModule({"a": a, "b": b})


def observe(mod):
    return tvm.s_tir.transform.InjectVirtualThread()(mod).script()


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "vthread_dynamic_extent", "blind3-first-function-only"))
