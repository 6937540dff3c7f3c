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
"""Blind round 6 demos of the VerifyMemory wrong fixes (apache/tvm): each program is checked
by ``tvm.tirx.analysis.verify_memory`` with its target attached."""

from harness.blind_demo import Demo


def verdict(func):
    """Observer: the verifier's verdict and first error line (the fixed pass on a module)."""
    from harness.blind_demo import line_package

    tvm = line_package()
    ok = tvm.tirx.analysis.verify_memory(func)
    try:
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))
        err = "accepted"
    except Exception as e:  # the result: the pass's error line
        err = next((x.strip() for x in str(e).splitlines() if "Variable" in x), str(e)[:100])
    return f"verify_memory={ok}; pass: {err}"


def targeted(name, target="cuda", host="llvm", entry=True):
    """A program builder: the PrimFunc ``name`` below, with ``target`` (and ``host``)."""

    def program():
        import tvm

        func = _programs()[name]
        tgt = tvm.target.Target(target, host=host) if host else tvm.target.Target(target)
        func = func.with_attr("target", tgt)
        if entry:
            func = func.with_attr("global_symbol", "main")
        else:
            func = func.without_attr("global_symbol")
        return func

    return program


def _programs():
    from tvm.script import tirx as T

    @T.prim_func
    def second_buffer(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        for i in range(8):  # host loop over the second parameter only
            C[i] = T.float32(1)

    @T.prim_func
    def host_loop(B: T.Buffer((8,), "float32")):
        for i in range(8):
            B[i] = T.float32(1)

    @T.prim_func
    def view_at_address(A: T.Buffer((16,), "float32")):
        V = T.decl_buffer((4,), "float32", data=T.address_of(A[4]))
        tx = T.launch_thread("threadIdx.x", 4)
        V[tx] = T.float32(1)

    @T.prim_func
    def local_cell(A: T.Buffer((8,), "float32")):
        c = T.alloc_buffer((1,), "float32", scope="local")
        c[0] = T.float32(2)
        tx = T.launch_thread("threadIdx.x", 8)
        A[tx] = c[0]

    @T.prim_func
    def nested_extent(A: T.Buffer((8,), "float32"), L: T.Buffer((1,), "int32")):
        bx = T.launch_thread("blockIdx.x", 1)  # noqa: F841
        tx = T.launch_thread("threadIdx.x", L[0])
        A[tx] = T.float32(1)

    return {
        "second_buffer": second_buffer,
        "host_loop": host_loop,
        "view_at_address": view_at_address,
        "local_cell": local_cell,
        "nested_extent": nested_extent,
    }


DEMOS = {
    "blind6-first-param-only": Demo(targeted("second_buffer"), verdict),
    "blind6-no-webgpu": Demo(targeted("host_loop", target="webgpu"), verdict),
    "blind6-address-of-accesses": Demo(targeted("view_at_address"), verdict),
    "blind6-helper-checked": Demo(targeted("host_loop", host=None, entry=False), verdict),
    "blind6-local-alloc-device": Demo(targeted("local_cell"), verdict),
    "blind6-nested-extent-device": Demo(targeted("nested_extent"), verdict),
}
