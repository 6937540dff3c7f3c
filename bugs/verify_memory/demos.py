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
"""Programs on which VerifyMemory's reference fix and each blind wrong fix differ, on apache/tvm
(harness/blind_demo.py; run with scripts/blind_demos.py --bug verify_memory; demos_tirx.py holds
the apache/tvm-tirx programs).

Most programs touch device memory from host code, or compute a view that only a kernel reads,
and are compiled: rejected (VerifyMemory names the variable) or compiled. The others call the
analysis itself, as the patch's tests do, where tvm.compile would not show the difference."""

import tvm
from harness.blind_demo import Demo
from tvm.script import tirx as T


def compiled(target="cuda"):
    """The observer: compile for ``target`` (no GPU needed: source only); "compiled", or the
    error's type and the line naming the variable accessed on the host (else its last line)."""

    def observe(func):
        try:
            tvm.compile(func, target=target)
        except Exception as err:
            lines = [x.strip() for x in str(err).splitlines() if x.strip()]
            said = [x for x in lines if "directly accessed" in x] or lines[-1:]
            return f"rejected: {type(err).__name__}: {said[0][:200]}"
        return "compiled"

    return observe


def verified(target=None):
    """The observer: tvm.tirx.analysis.verify_memory of the function (given ``target`` first,
    where its own attributes name none)."""

    def observe(func):
        if target is not None:
            func = func.with_attr("target", target)
        return f"verify_memory: {tvm.tirx.analysis.verify_memory(func)}"

    return observe


# the kernels the programs launch beside their host code (a macro is expanded where it is called)


@T.macro
def increment_on_gpu(X, n):  # X[tx] += 1 for tx < n, in one block
    for bx in T.thread_binding(1, thread="blockIdx.x"):
        for tx in T.thread_binding(n, thread="threadIdx.x"):
            X[tx] = X[tx] + T.float32(1)


@T.macro
def copy_on_gpu(dst, src, n):  # dst[tx] = src[tx] for tx < n
    for tx in T.thread_binding(n, thread="threadIdx.x"):
        dst[tx] = src[tx]


# blind round 2


@T.prim_func
def store_through_access_ptr(A: T.Buffer((8,), "float32")):
    p = T.tvm_access_ptr(T.type_annotation("float32"), A.data, 0, 8, 3)
    V = T.decl_buffer((8,), "float32", data=p)
    V[0] = T.float32(1)  # host store into device memory
    increment_on_gpu(A, 8)


@T.prim_func
def address_indexed_by_device(A: T.Buffer((8,), "float32"), B: T.Buffer((1,), "int32")):
    V = T.decl_buffer((4,), "float32", data=T.address_of(A[B[0]]))
    increment_on_gpu(V, 4)


@T.prim_func
def store_into_device_allocation(A: T.Buffer((8,), "float32")):
    S = T.alloc_buffer((8,), "float32", scope="global", annotations={"device_type": 2})
    S[0] = T.float32(1)  # host store into a device allocation
    tx = T.launch_thread("threadIdx.x", 8)  # the kernel, as lowering leaves it
    A[tx] = S[0]


@T.prim_func
def store_through_handle(a: T.handle("float32"), B: T.Buffer((8,), "float32")):
    A = T.decl_buffer((8,), "float32", data=a)
    A[0] = T.float32(1)  # host store into device memory
    increment_on_gpu(B, 8)


@T.prim_func
def hostless_entry_loop(A: T.Buffer((8,), "float32")):
    T.func_attr({"target": T.target("cuda"), "global_symbol": "func"})
    for i in range(8):  # bound to no thread: host code over device memory
        A[i] = A[i] + T.float32(1)


@T.prim_func
def nested_extent_read(A: T.Buffer((8,), "float32"), L: T.Buffer((1,), "int32")):
    increment_on_gpu(A, L[0])  # the threadIdx.x extent, L[0], is read on the host


@T.prim_func
def store_two_views_away(A: T.Buffer((8,), "float32")):
    V = T.decl_buffer((8,), "float32", data=A.data)
    W = T.decl_buffer((4,), "float32", data=V.data)
    W[0] = T.float32(1)  # host store into device memory, two views away from A
    increment_on_gpu(A, 8)


# blind round 3


@T.prim_func
def view_at_address(A: T.Buffer((8,), "float32"), C: T.Buffer((4,), "float32")):
    V = T.decl_buffer((4,), "float32", data=T.address_of(A[4]))  # an address, no access
    copy_on_gpu(C, V, 4)


@T.prim_func
def view_at_device_index(
    Idx: T.Buffer((1,), "int32"), A: T.Buffer((8,), "float32"), C: T.Buffer((4,), "float32")
):
    V = T.decl_buffer((4,), "float32", data=T.address_of(A[Idx[0]]))  # Idx[0] read on the host
    copy_on_gpu(C, V, 4)


@T.prim_func
def host_stack_buffer(C: T.Buffer((8,), "float32")):
    T.func_attr({"target": T.target("cuda", host="llvm")})
    t = T.alloc_buffer((4,), "float32", annotations={"disable_lower_builtin": 1})
    for i in range(4):
        t[i] = T.float32(2)  # host memory: LowerTVMBuiltin leaves it on the stack
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = T.float32(1) + T.Cast("float32", tx)


@T.prim_func
def store_into_second_param(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    C[0] = T.float32(1)  # host code writing device memory of the second parameter
    copy_on_gpu(C, B, 8)


@T.prim_func
def store_through_pointer(a: T.handle("float32", "global")):
    A = T.decl_buffer((8,), "float32", data=a)
    A[0] = T.float32(1)  # host write into the memory the pointer parameter passes in
    for tx in T.thread_binding(8, thread="threadIdx.x"):
        A[tx] = A[tx] + T.float32(1)


@T.prim_func
def hostless_entry_store(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    T.func_attr({"target": T.target("cuda")})
    C[0] = T.float32(1)  # host write into device memory
    with T.launch_thread("threadIdx.x", 8) as tx:
        C[tx] = B[tx]


@T.prim_func
def shared_dyn_size_read(L: T.Buffer((1,), "int32"), C: T.Buffer((8,), "float32")):
    for tx in T.thread_binding(8, thread="threadIdx.x"):
        S = T.alloc_buffer((L[0],), "float32", scope="shared.dyn")
        S[tx] = T.float32(1)
        C[tx] = S[tx]


@T.prim_func
def unbound_loop(B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    for i in range(8):  # bound to no GPU thread: host code over device buffers
        C[i] = B[i] + T.float32(1)


@T.prim_func
def inner_extent_read(L: T.Buffer((1,), "int32"), C: T.Buffer((64,), "float32")):
    for bx in T.thread_binding(8, thread="blockIdx.x"):
        for tx in T.thread_binding(L[0], thread="threadIdx.x"):  # extent read on the host
            C[bx * 8 + tx] = T.float32(1)


DEMOS = {
    # a host store through a view at tvm_access_ptr(..., A.data, ...): the wrong fix follows the
    # type annotation (operand 0), not the pointer
    "blind2-access-ptr-operand-0": Demo(lambda: store_through_access_ptr, compiled()),
    # a view at address_of(A[B[0]]) that the kernel reads: the host reads B in the index; the
    # wrong fix skips the address with its indices
    "blind2-address-of-skipped": Demo(lambda: address_indexed_by_device, compiled()),
    # a host store into an allocation annotated device_type 2 (CUDA; cuda with an llvm host): the
    # wrong fix takes any device_type for host memory
    "blind2-device-type-presence": Demo(
        lambda: store_into_device_allocation, verified(tvm.target.Target("cuda", host="llvm"))
    ),
    # a host store through a view of a T.handle("float32") parameter: the wrong fix counts buffer
    # parameters only
    "blind2-handle-params-ignored": Demo(lambda: store_through_handle, compiled()),
    # an entry point with T.target("cuda") (no host) and a host loop: the wrong fix skips every
    # host-less function
    "blind2-host-less-entry-skipped": Demo(lambda: hostless_entry_loop, verified()),
    # a nested threadIdx.x extent read from L[0]: the wrong fix visits the outermost extent only
    # and a later pass stops
    "blind2-nested-extents-device": Demo(lambda: nested_extent_read, compiled()),
    # a host store through a view of a view of A: the wrong fix follows one definition step
    "blind2-one-step-alias": Demo(lambda: store_two_views_away, compiled()),
    # VALID: a host view at address_of(A[4]) that only the kernel reads: the wrong fix counts the
    # address as an access of A
    "blind3-address-of-counts-access": Demo(lambda: view_at_address, compiled()),
    # a host view at address_of(A[Idx[0]]): the wrong fix skips the index, a host read of Idx
    "blind3-address-of-skips-indices": Demo(lambda: view_at_device_index, compiled()),
    # VALID: a disable_lower_builtin buffer written by a host loop (analysis: inside tvm.compile a
    # pass before VerifyMemory drops the annotation): the wrong fix needs device_type kDLCPU
    "blind3-disable-lower-builtin-ignored": Demo(lambda: host_stack_buffer, verified()),
    # a host store into the second buffer parameter: the wrong fix counts params[0] only
    "blind3-first-param-only": Demo(lambda: store_into_second_param, compiled()),
    # a host store through a view of a T.handle("float32", "global") parameter: the wrong fix
    # counts buffer-typed parameters only
    "blind3-handle-param-not-pointer": Demo(lambda: store_through_pointer, compiled()),
    # an entry point with T.target("cuda") (no host) storing into its parameter on the host
    # (analysis): the wrong fix skips every host-less function
    "blind3-hostless-entry-skipped": Demo(lambda: hostless_entry_store, verified()),
    # a shared.dyn size read from L[0]: the wrong fix does not visit it as host code, and a later
    # pass stops
    "blind3-no-shared-dyn-size": Demo(lambda: shared_dyn_size_read, compiled()),
    # a loop bound to no thread over device buffers, for webgpu: the wrong fix leaves webgpu out
    # of the GPUs
    "blind3-no-webgpu": Demo(
        lambda: unbound_loop, compiled(tvm.target.Target("webgpu", host="llvm"))
    ),
    # a nested launch's extent read from L[0]: the wrong fix visits the opening extent only, and a
    # later pass stops
    "blind3-outer-extent-only": Demo(lambda: inner_extent_read, compiled()),
}
