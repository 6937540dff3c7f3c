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
"""Demo program on which the reference fix and blind3-unnamed-pass differ.

A valid function with a constant virtual thread (vthread of extent 2 around a threadIdx.x
launch), run through Sequential([InjectVirtualThread()]) with
disabled_pass=["s_tir.InjectVirtualThread"]. The reference fix's pass keeps the released name and
is skipped (the vthread stays); the wrong fix's pass, named `_checked`, runs and injects it."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tvm
from harness.blind_demo import main
from tvm.script import tirx as T


def program():
    @T.prim_func
    def f(A: T.Buffer((8,), "float32")):
        with T.launch_thread("vthread", 2) as vthread:
            threadIdx_x = T.launch_thread("threadIdx.x", 4)
            A[vthread * 4 + threadIdx_x] = T.Cast("float32", vthread * 4 + threadIdx_x)

    return tvm.IRModule({"main": f})


def observe(mod):
    with tvm.transform.PassContext(disabled_pass=["s_tir.InjectVirtualThread"]):
        mod = tvm.transform.Sequential([tvm.s_tir.transform.InjectVirtualThread()])(mod)
    return mod.script()


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "vthread_dynamic_extent", "blind3-unnamed-pass"))
