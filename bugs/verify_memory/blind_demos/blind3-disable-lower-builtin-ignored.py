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
"""Demo program on which the reference fix and blind3-disable-lower-builtin-ignored differ.

A VALID program: a host buffer annotated disable_lower_builtin (LowerTVMBuiltin leaves it on the
host stack) is written by a host loop only, and the kernel writes C;
tvm.tirx.analysis.verify_memory on it (cuda, llvm host): the reference accepts it, the wrong fix
rejects it. (Inside tvm.compile a pass before VerifyMemory drops the annotation, so the analysis
is called directly, as the patch's tests call it.)"""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))

import tvm
from harness.blind_demo import main
from tvm.script import tirx as T


def program():
    @T.prim_func
    def func(C: T.Buffer((8,), "float32")):
        T.func_attr({"target": T.target("cuda", host="llvm")})
        t = T.alloc_buffer((4,), "float32", annotations={"disable_lower_builtin": 1})
        for i in range(4):
            t[i] = T.float32(2)  # host memory: LowerTVMBuiltin leaves it on the stack
        with T.launch_thread("threadIdx.x", 8) as tx:
            C[tx] = T.float32(1) + T.Cast("float32", tx)

    return func


def observe(func):
    return f"verify_memory: {tvm.tirx.analysis.verify_memory(func)}"


if __name__ == "__main__":
    sys.exit(main(sys.modules[__name__], "verify_memory", "blind3-disable-lower-builtin-ignored"))
