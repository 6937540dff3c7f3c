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
"""Demo program on which the reference fix and blind3-no-clone differ.

Valid kernel A[0] = reinterpret(uint32, 2.0f), compiled for OpenCL by tvm.compile; the demo keeps
the device module that tvm.compile hands to the build function target.build.opencl and prints it
after the build. The wrong fix rewrites that module in place: the caller's module afterwards
holds the fix's temporary `v = T.float32(2.0)`."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tvm_ffi

import tvm
from harness.blind_demo import main, script_of
from tvm.script import tirx as T


def program():
    @T.prim_func
    def f(A: T.Buffer((1,), "uint32")):
        for t in T.thread_binding(1, thread="threadIdx.x"):
            A[0] = T.reinterpret("uint32", T.float32(2.0))

    return f


def observe(func):
    name = "target.build.opencl"
    build = tvm_ffi.get_global_func(name)  # the fix's stand-in
    given = []

    def keep(mod, target):
        given.append(mod)
        return build(mod, target)

    tvm_ffi.register_global_func(name, keep, override=True)
    try:
        tvm.compile(func, target="opencl")
    finally:
        tvm_ffi.register_global_func(name, build, override=True)
    return script_of(given[0])


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "reinterpret_of_constant", "blind3-no-clone"))
