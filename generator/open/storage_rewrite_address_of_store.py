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
"""Open (apache/tvm 0.27 and the base commit, released and patched): StorageRewrite stops at an
internal check on a host store through a ``T.address_of`` view of a global buffer a kernel
reads, before VerifyMemory can reject the program with its message.

    .venv/bin/python generator/open/storage_rewrite_address_of_store.py

The program is invalid (the host stores into device memory), so it must be rejected, but with
a user-facing error: the same store written ``v0[0] = ...`` reaches VerifyMemory (patch 0003's
RuntimeError naming the store); through ``v0_a = T.decl_buffer(..., data=T.address_of(v0[0]))``
StorageRewrite, which tvm.compile runs first, fails with "Load/Store of buffer v0 occurred
before its declaration". Generator class ``d:ice-on-invalid:tirx.StorageRewrite:...`` (host
writes through the alias form, a module-level dimension). Exit 1 while the internal error is
there, 0 once the program is rejected with a user-facing error.
"""

import sys

import tvm
from tvm.script import ir as I
from tvm.script import tirx as T

TEXT = """@I.ir_module
class Module:
    @T.prim_func
    def main(o: T.Buffer((1,), "float32")):
        T.func_attr({"tirx.noalias": True})
        v0 = T.alloc_buffer((1,), "float32", scope="global")
        v0_a = T.decl_buffer((1,), "float32", data=T.address_of(v0[0]), scope="global")
        v0_a[0] = T.float32(1.0)
        for t in T.thread_binding(1, thread="threadIdx.x"):
            o[0] = v0_a[0]
"""

mod = tvm.script.from_source(TEXT, extra_vars={"T": T, "I": I, "tvm": tvm})
try:
    tvm.compile(mod, target="cuda")
except Exception as err:
    if "InternalError" in type(err).__name__ or "Check failed" in str(err):
        print(f"PRESENT: {type(err).__name__}: {str(err).strip().splitlines()[-1][:120]}")
        sys.exit(1)
    print(f"FIXED: rejected with {type(err).__name__}")
    sys.exit(0)
print("the invalid program compiled (a different defect)")
sys.exit(1)
