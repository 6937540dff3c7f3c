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
"""Blind round 4 demos of VerifyMemory on apache/tvm-tirx: each program goes through
``tvm_tirx.tirx.transform.VerifyMemory`` (the fixed one, or a wrong fix), which accepts it or
names the variables the host code accesses in device memory. tvm-tirx has no
``tvm_access_ptr``: blind4-access-ptr-operand-0 has no program here."""

import re

from harness.blind_demo import Demo

_CUDA = {"kind": "cuda", "arch": "sm_80"}


def _with_target(func, target=None, host="llvm"):
    import tvm_tirx

    spec = dict(target or _CUDA)
    if host:
        spec["host"] = host
    return func.with_attr("target", tvm_tirx.target.Target(spec))


def verdict(func):
    """'accepted', or 'rejected: ' and the variables the verifier names."""
    import tvm_tirx

    try:
        tvm_tirx.tirx.transform.VerifyMemory()(tvm_tirx.ir.IRModule({"main": func}))
    except Exception as err:  # the verifier's error
        names = re.findall(r"Variable `(\w+)` is directly accessed", str(err))
        return "rejected: " + ", ".join(sorted(set(names))) if names else f"error: {err}"
    return "accepted"


def handle_param():
    """A pointer parameter, viewed by a decl_tensor that the host code stores into."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(a: T.handle("float32", "global")):
        A = T.decl_tensor(a, ty_args=[T.Tensor((8,), "float32")])
        A[0] = T.float32(1)

    return _with_target(main)


def address_of_view():
    """A valid program: the host computes the address of a view that only the kernel
    accesses."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32")):
        V = T.decl_tensor(T.address_of(A[4]), ty_args=[T.Tensor((4,), "float32")])
        with T.launch_thread("threadIdx.x", 4) as tx:
            V[tx] = T.float32(1)

    return _with_target(main)


def address_of_host_index():
    """The index of the view's address_of reads the device tensor I on the host."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32"), Idx: T.Tensor((1,), "int32")):
        V = T.decl_tensor(T.address_of(A[Idx[0]]), ty_args=[T.Tensor((4,), "float32")])
        with T.launch_thread("threadIdx.x", 4) as tx:
            V[tx] = T.float32(1)

    return _with_target(main)


def nested_extent():
    """The nested launch_thread's extent reads the device tensor L on the host."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32"), L: T.Tensor((1,), "int32")):
        with T.launch_thread("blockIdx.x", 8) as bx:
            with T.launch_thread("threadIdx.x", L[0]):
                A[bx] = T.float32(1)

    return _with_target(main)


def shared_dyn_size():
    """The size of the kernel's shared.dyn tensor reads the device tensor L on the host."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32"), L: T.Tensor((1,), "int32")):
        with T.launch_thread("blockIdx.x", 8) as bx:
            S = T.alloc_tensor(ty_args=[T.Tensor((L[0],), "float32", scope="shared.dyn")])
            S[0] = T.float32(1)
            A[bx] = S[0]

    return _with_target(main)


def host_cell_disabled_lowering():
    """A valid program: a global host tensor annotated disable_lower_builtin, stored by the
    host and passed to the kernel by value."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32")):
        C = T.alloc_tensor(ty_args=[T.Tensor((4,), "float32")], attrs={"disable_lower_builtin": 1})
        C[0] = T.float32(1)
        with T.launch_thread("threadIdx.x", 4) as tx:
            A[tx] = C[0]

    return _with_target(main)


def alias_of_alias():
    """A host store through a view of a view of the parameter A."""
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32")):
        B = T.decl_tensor(A.data, ty_args=[T.Tensor((8,), "float32")])
        C = T.decl_tensor(B.data, ty_args=[T.Tensor((8,), "float32")])
        C[0] = T.float32(1)

    return _with_target(main)


def _host_store():
    from tvm_tirx.script import tirx as T

    @T.function
    def main(A: T.Tensor((8,), "float32")):
        A_1 = T.decl_tensor(A.data, ty_args=[T.Tensor((8,), "float32")])
        A_1[0] = T.float32(1)
        with T.launch_thread("threadIdx.x", 8) as tx:
            A_1[tx] = T.float32(2)

    return main


def host_store_on(target, host="llvm"):
    """FlattenTensor's shape of a host store beside a kernel, for ``target``."""
    return lambda: _with_target(_host_store(), target, host)


DEMOS = {
    "blind4-handle-param-not-pointer": Demo(handle_param, verdict),
    "blind4-address-of-is-access": Demo(address_of_view, verdict),
    "blind4-address-of-skips-indices": Demo(address_of_host_index, verdict),
    "blind4-outer-extent-only": Demo(nested_extent, verdict),
    "blind4-no-shared-dyn-size": Demo(shared_dyn_size, verdict),
    "blind4-ignore-disable-lower-builtin": Demo(host_cell_disabled_lowering, verdict),
    "blind4-one-alias-step": Demo(alias_of_alias, verdict),
    "blind4-no-webgpu": Demo(host_store_on({"kind": "webgpu"}), verdict),
    "blind4-skip-every-hostless": Demo(host_store_on(_CUDA, host=None), verdict),
}
