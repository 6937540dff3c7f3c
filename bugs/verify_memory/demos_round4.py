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
"""Blind round 4 demos of VerifyMemory (apache/tvm): each program goes through
``tvm.tirx.transform.VerifyMemory`` (the fixed one, or a wrong fix), which accepts it or names
the variables the host code accesses in device memory."""

import re

from harness.blind_demo import Demo


def _with_target(func, kind="cuda", host="llvm"):
    import tvm

    target = tvm.target.Target(kind, host=host) if host else tvm.target.Target(kind)
    return func.with_attr("target", target)


def verdict(func):
    """'accepted', or 'rejected: ' and the variables the verifier names."""
    import tvm

    try:
        tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))
    except Exception as err:  # the verifier's error
        names = re.findall(r"Variable `(\w+)` is directly accessed", str(err))
        return "rejected: " + ", ".join(sorted(set(names))) if names else f"error: {err}"
    return "accepted"


def handle_param():
    """A pointer parameter, viewed by a decl_buffer that the host code stores into."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(a: T.handle("float32", "global")):
        A = T.decl_buffer((8,), "float32", data=a)
        A[0] = T.float32(1)

    return _with_target(main)


def access_ptr_view():
    """A host store into a view over tvm_access_ptr(t, A.data, ...)."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        p = T.tvm_access_ptr(T.type_annotation("float32"), A.data, 0, 8, 3)
        B = T.decl_buffer((8,), "float32", data=p)
        B[0] = T.float32(1)

    return _with_target(main)


def address_of_view():
    """A valid program: the host computes the address of a view that only the kernel
    accesses."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        V = T.decl_buffer((4,), "float32", data=T.address_of(A[4]))
        tx = T.launch_thread("threadIdx.x", 4)
        V[tx] = T.float32(1)

    return _with_target(main)


def address_of_host_index():
    """The index of the view's address_of reads the device buffer I on the host."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), Idx: T.Buffer((1,), "int32")):
        V = T.decl_buffer((4,), "float32", data=T.address_of(A[Idx[0]]))
        tx = T.launch_thread("threadIdx.x", 4)
        V[tx] = T.float32(1)

    return _with_target(main)


def nested_extent():
    """The nested launch attribute's extent reads the device buffer L on the host."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), L: T.Buffer((1,), "int32")):
        bx = T.launch_thread("blockIdx.x", 8)
        tx = T.launch_thread("threadIdx.x", L[0])  # noqa: F841 (the launch binds it)
        A[bx] = T.float32(1)

    return _with_target(main)


def shared_dyn_size():
    """The size of the kernel's shared.dyn buffer reads the device buffer L on the host."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), L: T.Buffer((1,), "int32")):
        bx = T.launch_thread("blockIdx.x", 8)
        S = T.alloc_buffer((L[0],), "float32", scope="shared.dyn")
        S[0] = T.float32(1)
        A[bx] = S[0]

    return _with_target(main)


def host_cell_disabled_lowering():
    """A valid program: a global host buffer that LowerTVMBuiltin leaves on the host stack
    (disable_lower_builtin), stored by the host and passed to the kernel by value."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        C = T.alloc_buffer((4,), "float32", annotations={"disable_lower_builtin": 1})
        C[0] = T.float32(1)
        tx = T.launch_thread("threadIdx.x", 4)
        A[tx] = C[0]

    return _with_target(main)


def alias_of_alias():
    """A host store through an alias of an alias of the parameter A."""
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        B = T.decl_buffer((8,), "float32", data=A.data)
        C = T.decl_buffer((8,), "float32", data=B.data)
        C[0] = T.float32(1)

    return _with_target(main)


def _host_store():
    from tvm.script import tirx as T

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        A_1 = T.decl_buffer((8,), "float32", data=A.data)
        A_1[0] = T.float32(1)
        tx = T.launch_thread("threadIdx.x", 8)
        A_1[tx] = T.float32(2)

    return main


def host_store_on(kind, host="llvm"):
    """FlattenBuffer's shape of a host store beside a kernel, for target ``kind``."""
    return lambda: _with_target(_host_store(), kind, host)


DEMOS = {
    "blind4-handle-param-not-pointer": Demo(handle_param, verdict),
    "blind4-access-ptr-operand-0": Demo(access_ptr_view, verdict),
    "blind4-address-of-is-access": Demo(address_of_view, verdict),
    "blind4-address-of-skips-indices": Demo(address_of_host_index, verdict),
    "blind4-outer-extent-only": Demo(nested_extent, verdict),
    "blind4-no-shared-dyn-size": Demo(shared_dyn_size, verdict),
    "blind4-ignore-disable-lower-builtin": Demo(host_cell_disabled_lowering, verdict),
    "blind4-one-alias-step": Demo(alias_of_alias, verdict),
    "blind4-no-webgpu": Demo(host_store_on("webgpu"), verdict),
    "blind4-skip-every-hostless": Demo(host_store_on("cuda", host=None), verdict),
}
