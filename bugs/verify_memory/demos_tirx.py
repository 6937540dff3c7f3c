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
"""Programs on which VerifyMemory's reference fix and each blind wrong fix differ, on
apache/tvm-tirx (harness/blind_demo.py; run with .venv-tirx/bin/python scripts/blind_demos.py
--bug verify_memory): demos.py's programs written with tensors and launch regions. The
access-ptr-operand-0 wrong fix has none: tvm-tirx's TVMScript has no tvm_access_ptr.

Most programs are compiled for cuda (sm_80; no GPU needed): rejected or compiled; the others
call the analysis itself."""

import tvm_tirx
from tvm_tirx.script import tirx as T

from harness.blind_demo import Demo

CUDA = tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80"})


def compiled(target=CUDA):
    """The observer: compile for ``target``; "compiled", or the error's type and the line
    naming the variable accessed on the host (else its last line)."""

    def observe(func):
        try:
            tvm_tirx.tirx.compile(func, target=target)
        except Exception as err:
            lines = [x.strip() for x in str(err).splitlines() if x.strip()]
            said = [x for x in lines if "directly accessed" in x] or lines[-1:]
            return f"rejected: {type(err).__name__}: {said[0][:200]}"
        return "compiled"

    return observe


def verified(target=None):
    """The observer: tvm_tirx.tirx.analysis.verify_memory of the function (given ``target``
    first, where its own attributes name none)."""

    def observe(func):
        if target is not None:
            func = func.with_attr("target", target)
        return f"verify_memory: {tvm_tirx.tirx.analysis.verify_memory(func)}"

    return observe


# the kernels the programs launch beside their host code (a macro is expanded where it is called)


@T.macro
def increment_in_launch(X, n):  # X[tx] += 1 for tx < n
    with T.launch_thread("threadIdx.x", n) as tx:
        X[tx] = X[tx] + T.float32(1)


@T.macro
def copy_in_launch(dst, src, n):  # dst[tx] = src[tx] for tx < n
    with T.launch_thread("threadIdx.x", n) as tx:
        dst[tx] = src[tx]


# blind round 2


@T.function
def address_indexed_by_device(A: T.Tensor((8,), "float32"), B: T.Tensor((1,), "int32")):
    V = T.decl_tensor(T.address_of(A[B[0]]), ty_args=[T.Tensor((4,), T.float32)])
    increment_in_launch(V, 4)


@T.function
def store_into_device_allocation(A: T.Tensor((8,), "float32")):
    S = T.alloc_tensor(ty_args=[T.Tensor((8,), T.float32)], attrs={"device_type": 2})
    S[0] = T.float32(1)  # host store into a device allocation
    with T.launch_thread("threadIdx.x", 8) as tx:
        A[tx] = S[0]


@T.function
def store_through_handle(a: T.handle("float32"), B: T.Tensor((8,), "float32")):
    A = T.decl_tensor(a, ty_args=[T.Tensor((8,), T.float32)])
    A[0] = T.float32(1)  # host store into device memory
    increment_in_launch(B, 8)


@T.function
def hostless_entry_loop(A: T.Tensor((8,), "float32")):
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"}), "global_symbol": "func"})
    for i in range(8):  # in no launch: host code over device memory
        A[i] = A[i] + T.float32(1)


@T.function
def nested_extent_read(A: T.Tensor((8,), "float32"), L: T.Tensor((1,), "int32")):
    with T.launch_thread("blockIdx.x", 1) as bx:  # noqa: F841 (the launch binds it)
        increment_in_launch(A, L[0])  # the threadIdx.x extent, L[0], is read on the host


@T.function
def store_two_views_away(A: T.Tensor((8,), "float32")):
    V = T.decl_tensor(A.data, ty_args=[T.Tensor((8,), T.float32)])
    p = V.data  # a let-bound pointer: FlattenTensor keeps the chain W -> p -> V -> A
    W = T.decl_tensor(p, ty_args=[T.Tensor((4,), T.float32)])
    W[0] = T.float32(1)  # host store into device memory, three definitions away from A
    increment_in_launch(A, 8)


# blind round 3


@T.function
def view_at_address(A: T.Tensor((8,), "float32"), C: T.Tensor((4,), "float32")):
    V = T.decl_tensor(T.address_of(A[4]), ty_args=[T.Tensor((4,), "float32")])
    copy_in_launch(C, V, 4)


@T.function
def view_at_device_index(
    Idx: T.Tensor((1,), "int32"), A: T.Tensor((8,), "float32"), C: T.Tensor((4,), "float32")
):
    V = T.decl_tensor(T.address_of(A[Idx[0]]), ty_args=[T.Tensor((4,), "float32")])
    copy_in_launch(C, V, 4)


@T.function
def host_stack_tensor(C: T.Tensor((8,), "float32")):
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})})
    t = T.alloc_tensor(ty_args=[T.Tensor((4,), "float32")], attrs={"disable_lower_builtin": 1})
    for i in range(4):
        t[i] = T.float32(2)
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = T.float32(1)


@T.function
def store_into_second_param(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
    C[0] = T.float32(1)
    copy_in_launch(C, B, 8)


@T.function
def store_through_pointer(a: T.ptr("float32")):
    A = T.decl_tensor(a, ty_args=[T.Tensor((8,), "float32")])
    A[0] = T.float32(1)
    increment_in_launch(A, 8)


@T.function
def hostless_entry_store(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
    T.func_attr({"target": T.target({"kind": "cuda", "arch": "sm_80"}), "global_symbol": "func"})
    C[0] = T.float32(1)
    copy_in_launch(C, B, 8)


@T.function
def shared_dyn_size_read(L: T.Tensor((1,), "int32"), C: T.Tensor((8,), "float32")):
    with T.launch_thread("threadIdx.x", 8) as tx:
        S = T.alloc_tensor(ty_args=[T.Tensor((L[0],), "float32", scope="shared.dyn")])
        S[tx] = T.float32(1)
        C[tx] = S[tx]


@T.function
def unbound_loop(B: T.Tensor((8,), "float32"), C: T.Tensor((8,), "float32")):
    for i in range(8):
        C[i] = B[i] + T.float32(1)


@T.function
def inner_extent_read(L: T.Tensor((1,), "int32"), C: T.Tensor((64,), "float32")):
    with T.launch_thread("blockIdx.x", 8) as bx:
        with T.launch_thread("threadIdx.x", L[0]) as tx:
            C[bx * 8 + tx] = T.float32(1)


DEMOS = {
    # a view at address_of(A[B[0]]) that the kernel reads: the host reads B in the index; the
    # wrong fix skips the address with its indices
    "blind2-address-of-skipped": Demo(lambda: address_indexed_by_device, compiled()),
    # a host store into an allocation annotated device_type 2 (CUDA; cuda with an llvm host): the
    # wrong fix takes any device_type for host memory
    "blind2-device-type-presence": Demo(
        lambda: store_into_device_allocation,
        verified(tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_80", "host": "llvm"})),
    ),
    # a host store through a view of a T.handle("float32") parameter: the wrong fix counts tensor
    # parameters only
    "blind2-handle-params-ignored": Demo(lambda: store_through_handle, compiled()),
    # an entry point with a cuda target (no host) and a host loop: the wrong fix skips every
    # host-less function
    "blind2-host-less-entry-skipped": Demo(lambda: hostless_entry_loop, verified()),
    # a nested threadIdx.x extent read from L[0]: the wrong fix visits the outermost extent only
    # and a later pass stops
    "blind2-nested-extents-device": Demo(lambda: nested_extent_read, compiled()),
    # a host store through a let-bound pointer to a view of A: the wrong fix follows one
    # definition step
    "blind2-one-step-alias": Demo(lambda: store_two_views_away, compiled()),
    # VALID: a host view at address_of(A[4]) that only the kernel reads: the wrong fix counts the
    # address as an access of A
    "blind3-address-of-counts-access": Demo(lambda: view_at_address, compiled()),
    # a host view at address_of(A[Idx[0]]): the wrong fix skips the index, a host read of Idx
    "blind3-address-of-skips-indices": Demo(lambda: view_at_device_index, compiled()),
    # VALID: a disable_lower_builtin tensor written by a host loop (analysis): the wrong fix needs
    # device_type kDLCPU
    "blind3-disable-lower-builtin-ignored": Demo(lambda: host_stack_tensor, verified()),
    # a host store into the second tensor parameter: the wrong fix counts params[0] only
    "blind3-first-param-only": Demo(lambda: store_into_second_param, compiled()),
    # a host store through a view of a T.ptr("float32") parameter: the wrong fix counts
    # tensor-typed parameters only
    "blind3-handle-param-not-pointer": Demo(lambda: store_through_pointer, compiled()),
    # an entry point with a cuda target (no host) storing into its parameter on the host
    # (analysis): the wrong fix skips every host-less function
    "blind3-hostless-entry-skipped": Demo(lambda: hostless_entry_store, verified()),
    # a shared.dyn size read from L[0]: the wrong fix does not visit it as host code, and a later
    # pass stops
    "blind3-no-shared-dyn-size": Demo(lambda: shared_dyn_size_read, compiled()),
    # a loop in no launch over device tensors, for webgpu: the wrong fix leaves webgpu out of the
    # GPUs
    "blind3-no-webgpu": Demo(
        lambda: unbound_loop, compiled(tvm_tirx.target.Target("webgpu", host="llvm"))
    ),
    # a nested launch's extent read from L[0]: the wrong fix visits the opening extent only, and a
    # later pass stops
    "blind3-outer-extent-only": Demo(lambda: inner_extent_read, compiled()),
}
