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
"""Open (both lines): a view a WebGPU kernel declares at an element's address stops code
generation at an internal error.

    .venv/bin/python generator/open/webgpu_kernel_view_at_address.py

Inside a kernel, ``v_k = T.decl_buffer((1,), data=T.address_of(v[0]))`` over a global buffer
compiles for CUDA, OpenCL and Metal; for WebGPU, whose WGSL has no pointer casts, apache/tvm
0.27 stops in code generation at "Cannot treat type `ir.PointerType` as type `ir.PrimType`"
and apache/tvm-tirx 0.1.0a4 at "Check failed: (source && var_idmap_.count(source)) is false:
WebGPU tensor views require a named storage array" (generator class
``d:ice-on-valid:codegen:...``, released and under the reference fixes alike). A target limit,
out of this repository's scope (no host/device boundary crossed), that deserves a diagnostic
naming the view. Exit 1 while WebGPU refuses it with an internal error, 0 once it compiles or
says what to change.
"""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A_k = T.decl_buffer((1,), "float32", data=T.address_of(A[0]))
        B[0] = A_k[0]


for target in ("cuda", "webgpu"):
    try:
        tvm.compile(main, target=target)
        print(f"{target}: compiles")
    except Exception as err:
        lines = [x.strip() for x in str(err).splitlines() if x.strip()]
        internal = "Cannot treat type" in str(err) or "Check failed" in str(err)
        print(f"{target}: {type(err).__name__}: {lines[-1][:150]}")
        if internal:
            sys.exit(1)
sys.exit(0)
