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
"""tvm.compile(..., target="cuda") must reject host-side access to argument buffers.

A host-side load or store of a cuda function's argument buffer dereferences a device pointer
on the CPU. ``tirx.VerifyMemory`` in the TIR pipeline is meant to reject it at build time
("... is directly accessed by host memory ... Did you forget to bind?"). No GPU is needed:
everything here stops at code generation.
"""

import re

import numpy as np
import pytest

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T

N = 8


def _verify_memory_error(var):
    """The verifier's error for a host access to ``var`` (src/tirx/analysis/verify_memory.cc).

    The verifier reports only through this text, so the whole sentence about ``var`` is
    matched, between the header and the closing hint of the same error.
    """
    return (
        r"Memory verification failed with the following errors:\n(?:    .*\n)*"
        + re.escape(
            f"    Variable `{var}` is directly accessed by host memory (it is not contained in "
            "a thread environment or in the function arguments.\n"
        )
        + r"(?:    .*\n)*  Did you forget to bind\?"
    )


def _assert_rejected(build, var):
    """``build()`` must fail with VerifyMemory's error about a host access to ``var``."""
    with pytest.raises(RuntimeError, match=_verify_memory_error(var)):
        build()


def _compile_cuda(mod):
    return lambda: tvm.compile(mod, target="cuda")


def _verify_memory_pass(mod):
    """Run the verifier pass alone on ``mod`` as written, with a cuda target."""
    cuda = tvm.target.Target("cuda", host="llvm")
    func = mod["main"].with_attr("target", cuda)
    return lambda: tvm.tirx.transform.VerifyMemory()(tvm.IRModule({"main": func}))


# ---------------------------------------------------------------------------------------------
# Host accesses to argument buffers: tvm.compile must reject each of them.


@I.ir_module
class HostStoreBeforeLaunch:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        C[0] = T.float32(1.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i]


@I.ir_module
class HostLoadBeforeLaunch:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        c: T.let[T.float32] = B[0]
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] + c


@I.ir_module
class UnboundKernel:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        for i in range(N):
            C[i] = B[i]


@I.ir_module
class HostStoreThroughDeclBuffer:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        C_view = T.decl_buffer((N,), "float32", data=C.data)
        C_view[0] = T.float32(1.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i]


@I.ir_module
class HostStoreThroughMatchBuffer:
    @T.prim_func
    def main(b: T.handle, c: T.handle):
        B = T.match_buffer(b, (N,), "float32")
        C = T.match_buffer(c, (N,), "float32")
        C[0] = T.float32(1.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i]


@I.ir_module
class HostStoreThroughMatchBufferRegion:
    @T.prim_func(s_tir=True)
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        with T.sblock("host"):
            C_sub = T.match_buffer(C[2:4], (2,), "float32", offset_factor=1)
            C_sub[0] = T.float32(1.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            with T.sblock("copy"):
                C[i] = B[i]


@pytest.mark.xfail(
    strict=True,
    raises=pytest.fail.Exception,  # pytest.raises: "DID NOT RAISE"
    reason="VerifyMemory does not reject host access to device memory inside tvm.compile",
)
@pytest.mark.parametrize(
    "mod, var",
    [
        (HostStoreBeforeLaunch, "C"),
        (HostLoadBeforeLaunch, "B"),
        (UnboundKernel, "C"),
        (HostStoreThroughDeclBuffer, "C_view"),
        (HostStoreThroughMatchBuffer, "C"),
        # after LowerMatchBuffer the store names C's flattened alias
        (HostStoreThroughMatchBufferRegion, "C"),
    ],
    ids=[
        "host_store",
        "host_load",
        "unbound_kernel",
        "decl_buffer_alias",
        "match_buffer",
        "match_buffer_region",
    ],
)
def test_compile_rejects_host_access(mod, var):
    _assert_rejected(_compile_cuda(mod), var)


# ---------------------------------------------------------------------------------------------
# Controls for the same helper: the verifier pass, run by itself on the same kind of access
# written in the shape it handles today (accesses on the parameters, thread bindings as
# thread environments), rejects it with that error.


@I.ir_module
class ParamHostStore:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        C[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", N) as tx:
            C[tx] = B[tx]


@I.ir_module
class ParamHostLoad:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        c: T.let[T.float32] = B[0]
        with T.launch_thread("threadIdx.x", N) as tx:
            C[tx] = B[tx] + c


@I.ir_module
class ParamHostStoreThroughMatchBuffer:
    @T.prim_func
    def main(b: T.handle, c: T.handle):
        B = T.match_buffer(b, (N,), "float32")
        C = T.match_buffer(c, (N,), "float32")
        C[0] = T.float32(1.0)
        with T.launch_thread("threadIdx.x", N) as tx:
            C[tx] = B[tx]


@pytest.mark.parametrize(
    "mod, var",
    [
        (ParamHostStore, "C"),
        (ParamHostLoad, "B"),
        (UnboundKernel, "C"),
        (ParamHostStoreThroughMatchBuffer, "C"),
    ],
    ids=["host_store", "host_load", "unbound_kernel", "match_buffer"],
)
def test_verify_memory_pass_rejects_host_access(mod, var):
    _assert_rejected(_verify_memory_pass(mod), var)


# ---------------------------------------------------------------------------------------------
# Legal functions: must keep compiling.


def _kernel_signatures(lib):
    # the CUDA source is text only; a kernel is its `__global__` declaration line
    source = lib.mod.imports[0].inspect_source()
    return [line for line in source.splitlines() if "__global__" in line]


@I.ir_module
class BoundKernel:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] * T.float32(2.0)


@I.ir_module
class HostLetScalar:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        c: T.let[T.float32] = T.float32(0.5)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = B[i] + c


@I.ir_module
class HostLevelIntermediate:
    @T.prim_func
    def main(B: T.Buffer((N,), "float32"), C: T.Buffer((N,), "float32")):
        tmp = T.alloc_buffer((N,), "float32")
        for i in T.thread_binding(N, thread="threadIdx.x"):
            tmp[i] = B[i] * T.float32(2.0)
        for i in T.thread_binding(N, thread="threadIdx.x"):
            C[i] = tmp[i] + T.float32(1.0)


@pytest.mark.parametrize(
    "mod, num_kernels",
    [(BoundKernel, 1), (HostLetScalar, 1), (HostLevelIntermediate, 2)],
    ids=["bound_kernel", "host_let_scalar", "host_level_intermediate"],
)
def test_compile_accepts_device_only_access(mod, num_kernels):
    lib = tvm.compile(mod, target="cuda")
    # each kernel appears as a forward declaration and as a definition
    assert len(_kernel_signatures(lib)) == 2 * num_kernels


def test_compile_accepts_host_loop_for_llvm():
    lib = tvm.compile(UnboundKernel, target="llvm")
    b = tvm.runtime.tensor(np.arange(N, dtype="float32"))
    c = tvm.runtime.tensor(np.zeros(N, dtype="float32"))
    lib(b, c)
    np.testing.assert_array_equal(c.numpy(), np.arange(N, dtype="float32"))


if __name__ == "__main__":
    tvm.testing.main()
