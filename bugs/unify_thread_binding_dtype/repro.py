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
"""UnifyThreadBinding gives an int64 thread loop an int32 IterVar: print -> parse changes it."""

import sys

import tvm
from tvm.script import tirx as T

failed = []
for dtype in ("int32", "int64"):

    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        with T.launch_thread("vthread", tvm.tirx.const(2, dtype)) as v:
            for i in T.thread_binding(8, thread="threadIdx.x"):
                A[v * 8 + i] = T.float32(1.0)

    mod = tvm.s_tir.transform.UnifyThreadBinding()(tvm.IRModule({"main": main}))
    loop = mod["main"].body  # for vthread in T.thread_binding(2, thread="vthread")
    iter_var = loop.thread_binding  # the loop's IterVar (thread tag "vthread")
    print(f"{dtype} extent: loop var {loop.loop_var.ty}, its IterVar's var {iter_var.var.ty}")
    try:
        tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script()))
    except ValueError as err:
        where = str(err).splitlines()[0].split(" at ")[-1].rstrip(":")
        print(f"  print -> parse differs at {where}")
        failed.append(dtype)
if failed:
    sys.exit(f"UnifyThreadBinding's output does not survive print -> parse: {', '.join(failed)}")
print("OK: the output survives print -> parse")
