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
"""LowerTVMBuiltin types tvm_throw_last_error int32, and its TVMScript parses back as void."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(n: T.int32):
    T.func_attr({"target": T.target("llvm")})
    with T.attr("default", "device_id", 0):
        with T.attr("default", "device_type", 1):
            B = T.alloc_buffer((n,), "float32")  # a workspace: its failure path throws
            T.evaluate(T.call_extern("int32", "use", B.data))


after = tvm.tirx.transform.LowerTVMBuiltin()(tvm.IRModule({"main": main}))
text = after.script()
print(next(line.strip() for line in text.splitlines() if "throw" in line))
back = tvm.script.from_source(text)
types = [str(m["main"].body.seq[1].then_case.value.ty) or "void" for m in (after, back)]
print(f"the call's type: {types[0]} after LowerTVMBuiltin, {types[1]} after print -> parse")
if types[0] != types[1]:
    sys.exit("print -> parse changes the type of T.tvm_throw_last_error()")
print("OK: the call keeps its type")
