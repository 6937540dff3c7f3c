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
"""tvm.tirx.analysis.verify_memory on host accesses to argument buffers of a GPU function.

The functions below are written in the shape the TIR pipeline hands to ``tirx.VerifyMemory``:
``FlattenBuffer`` has rebound every parameter buffer as ``B_1 = T.decl_buffer(...,
data=B.data)`` and the body accesses only those aliases, and thread bindings are
``T.launch_thread`` environments. A host access to an argument buffer must be rejected
whether it names the parameter or an alias of it.
"""

import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T

N = 8


def _with_target(func, target):
    return func.with_attr("target", tvm.target.Target(target))


def _assert_host_access_rejected(func):
    """verify_memory must reject ``func`` compiled for cuda (a host access to device memory)."""
    assert not tvm.tirx.analysis.verify_memory(_with_target(func, "cuda")), (
        "verify_memory accepted a host-side access to an argument buffer of a cuda function"
    )


def _assert_accepted(func, target="cuda"):
    assert tvm.tirx.analysis.verify_memory(_with_target(func, target))


# ---------------------------------------------------------------------------------------------
# Host accesses through aliases (the shape tvm.compile produces): must be rejected.


@T.prim_func
def alias_host_store(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    B_1 = T.decl_buffer((N,), data=B.data)
    C_1 = T.decl_buffer((N,), data=C.data)
    C_1[0] = T.float32(1.0)
    with T.launch_thread("threadIdx.x", N) as tx:
        C_1[tx] = B_1[tx]


@T.prim_func
def alias_host_load(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    B_1 = T.decl_buffer((N,), data=B.data)
    C_1 = T.decl_buffer((N,), data=C.data)
    c: T.let[T.float32] = B_1[0]
    with T.launch_thread("threadIdx.x", N) as tx:
        C_1[tx] = B_1[tx] + c


@T.prim_func
def alias_unbound_kernel(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    B_1 = T.decl_buffer((N,), data=B.data)
    C_1 = T.decl_buffer((N,), data=C.data)
    for i in range(N):
        C_1[i] = B_1[i]


@T.prim_func
def alias_of_alias_host_store(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    B_1 = T.decl_buffer((N,), data=B.data)
    C_1 = T.decl_buffer((N,), data=C.data)
    C_2 = T.decl_buffer((N // 2,), data=C_1.data)
    C_2[1] = T.float32(1.0)
    with T.launch_thread("threadIdx.x", N) as tx:
        C_1[tx] = B_1[tx]


@T.prim_func
def match_buffer_alias_host_store(b: T.handle, c: T.handle):
    B = T.match_buffer(b, (N,), "float32")
    C = T.match_buffer(c, (N,), "float32")
    B_1 = T.decl_buffer((N,), data=B.data)
    C_1 = T.decl_buffer((N,), data=C.data)
    C_1[0] = T.float32(1.0)
    with T.launch_thread("threadIdx.x", N) as tx:
        C_1[tx] = B_1[tx]


@T.prim_func(s_tir=True)
def match_buffer_region_host_store(C: T.Buffer((N,), "float32")):
    with T.sblock("host"):
        C_sub = T.match_buffer(C[2:4], (2,), "float32", offset_factor=1)
        C_sub[0] = T.float32(1.0)


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason=(
        "VerifyMemory does not trace buffer aliases (decl_buffer / match_buffer) back to the "
        "function arguments, so host access to device memory is accepted"
    ),
)
@pytest.mark.parametrize(
    "func",
    [
        alias_host_store,
        alias_host_load,
        alias_unbound_kernel,
        alias_of_alias_host_store,
        match_buffer_alias_host_store,
        match_buffer_region_host_store,
    ],
    ids=[
        "host_store",
        "host_load",
        "unbound_kernel",
        "alias_of_alias",
        "match_buffer_param",
        "match_buffer_region",
    ],
)
def test_host_access_through_alias_is_rejected(func):
    _assert_host_access_rejected(func)


# ---------------------------------------------------------------------------------------------
# Controls for the same helper: the same accesses on the parameters themselves, the shape the
# verifier handles today.


@T.prim_func
def param_host_store(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    C[0] = T.float32(1.0)
    with T.launch_thread("threadIdx.x", N) as tx:
        C[tx] = B[tx]


@T.prim_func
def param_host_load(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    c: T.let[T.float32] = B[0]
    with T.launch_thread("threadIdx.x", N) as tx:
        C[tx] = B[tx] + c


@T.prim_func
def param_unbound_kernel(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    for i in range(N):
        C[i] = B[i]


@T.prim_func
def match_buffer_param_host_store(b: T.handle, c: T.handle):
    B = T.match_buffer(b, (N,), "float32")
    C = T.match_buffer(c, (N,), "float32")
    C[0] = T.float32(1.0)
    with T.launch_thread("threadIdx.x", N) as tx:
        C[tx] = B[tx]


@pytest.mark.parametrize(
    "func",
    [param_host_store, param_host_load, param_unbound_kernel, match_buffer_param_host_store],
    ids=["host_store", "host_load", "unbound_kernel", "match_buffer_param"],
)
def test_host_access_to_parameter_is_rejected(func):
    _assert_host_access_rejected(func)


# ---------------------------------------------------------------------------------------------
# Legal functions: must stay accepted.


@T.prim_func
def alias_bound_kernel(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    B_1 = T.decl_buffer((N,), data=B.data)
    C_1 = T.decl_buffer((N,), data=C.data)
    with T.launch_thread("threadIdx.x", N) as tx:
        C_1[tx] = B_1[tx]


@T.prim_func
def alias_kernel_reads_host_let(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    B_1 = T.decl_buffer((N,), data=B.data)
    C_1 = T.decl_buffer((N,), data=C.data)
    c: T.let[T.float32] = T.float32(0.5)
    with T.launch_thread("threadIdx.x", N) as tx:
        C_1[tx] = B_1[tx] + c


@T.prim_func
def alias_kernel_only_intermediate(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
    B_1 = T.decl_buffer((N,), data=B.data)
    C_1 = T.decl_buffer((N,), data=C.data)
    tmp = T.alloc_buffer((N,), "float32")
    with T.launch_thread("threadIdx.x", N) as tx:
        tmp[tx] = B_1[tx] * T.float32(2.0)
    with T.launch_thread("threadIdx.x", N) as tx:
        C_1[tx] = tmp[tx]


@pytest.mark.parametrize(
    "func",
    [alias_bound_kernel, alias_kernel_reads_host_let, alias_kernel_only_intermediate],
    ids=["bound_kernel", "host_let_scalar", "kernel_only_intermediate"],
)
def test_device_only_access_is_accepted(func):
    _assert_accepted(func)


@pytest.mark.parametrize(
    "func",
    [alias_host_store, alias_unbound_kernel, param_unbound_kernel],
    ids=["alias_host_store", "alias_loop", "param_loop"],
)
def test_host_function_for_llvm_is_accepted(func):
    _assert_accepted(func, target="llvm")


if __name__ == "__main__":
    tvm.testing.main()
