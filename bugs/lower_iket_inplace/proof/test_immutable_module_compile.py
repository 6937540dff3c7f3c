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
"""Which passes of tvm.compile change the module they are given (this repository only):
tvm.compile under ``testing.immutable_module`` (the pass infrastructure hashes every pass's
input before and after it runs and stops at the first that changed) on programs that make the
passes of the s_tir and tirx pipelines and their finalization rewrite something: IKET marks,
host scalars, bfloat16 and float8, int64 indices, several kernels, shared, dynamic shared,
warp and local memory, a software pipeline, a virtual thread, a cross-thread reduction, a
match buffer, loop partitioning, auto copies, a manifested local stage.

Three passes write their input today: AnnotateEntryFunc (every program), SplitHostDevice
(every program with a kernel) and LowerIket (the programs with IKET marks). Under their
reference fixes every program compiles: no other pass these programs reach writes its input.
Of those pipelines' passes, InferFragment, InjectPermutedLayout, TransformMmaBufferLayout,
LowerVtcmAlloc, InstrumentBoundCheckers and InsertHoistIfThenElse are reached by none of
them; all are PrimFunc passes, which write only through the copy of the module the pass
infrastructure makes when the module is shared. InjectDoubleBuffer is applied alone: inside
the s_tir pipeline it stops on the module the passes before it leave ("Check failed:
(stride.defined())"). The apache/tvm-tirx line's twin: test_inplace_passes_tirx.py."""

import pytest
import tvm_ffi
from lower_iket_inplace_cases import SM90, bfloat16_float8
from test_lower_iket_inplace import _mark as _iket_mark
from test_lower_iket_inplace import _token_loop as _iket_token_loop

import tvm
import tvm.testing
from tvm.script import ir as I
from tvm.script import tirx as T

IMMUTABLE = "testing.immutable_module"
SM75 = {"kind": "cuda", "arch": "sm_75"}

ANNOTATE = pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="AnnotateEntryFunc changes its input module in place (the first pass to fail)",
)
SPLIT = pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="SplitHostDevice changes its input module in place",
)
IKET = pytest.mark.xfail(
    strict=True,
    raises=tvm.error.InternalError,
    reason="LowerIket changes its input module in place",
)


def _matmul():
    """Shared and dynamic shared caches, a virtual thread, vectorized and unrolled loops, a
    decomposed reduction, a local cache of the output"""

    @T.prim_func(s_tir=True)
    def mm(
        A: T.Buffer((128, 128), "float32"),
        B: T.Buffer((128, 128), "float32"),
        C: T.Buffer((128, 128), "float32"),
    ):
        for i, j, k in T.grid(128, 128, 128):
            with T.sblock("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    sch = tvm.s_tir.Schedule(mm)
    block = sch.get_sblock("C")
    i, j, k = sch.get_loops(block)
    bi, vi, ti = sch.split(i, [None, 2, 8])
    bj, tj = sch.split(j, [None, 16])
    ko, ki = sch.split(k, [None, 8])
    sch.reorder(bi, bj, vi, ti, tj, ko, ki)
    for loop, thread in [(bi, "blockIdx.x"), (bj, "blockIdx.y"), (vi, "vthread.x")]:
        sch.bind(loop, thread)
    sch.bind(ti, "threadIdx.y")
    sch.bind(tj, "threadIdx.x")
    for index, scope in [(0, "shared"), (1, "shared.dyn")]:
        cache = sch.cache_read(block, index, scope)
        sch.compute_at(cache, ko)
        fused = sch.fuse(*sch.get_loops(cache)[-2:])
        _, ty, tx, vec = sch.split(fused, [None, 8, 16, 2])
        sch.bind(ty, "threadIdx.y")
        sch.bind(tx, "threadIdx.x")
        sch.vectorize(vec)
    sch.unroll(ki)
    sch.reverse_compute_at(sch.cache_write(block, 0, "local"), tj)
    sch.decompose_reduction(block, ko)
    return sch.mod["main"]


@T.prim_func(s_tir=True)
def _row_sum(a: T.handle, b: T.handle):
    A = T.match_buffer(a, [64, 128], dtype="float32")
    B = T.match_buffer(b, [64], dtype="float32")
    for i in T.thread_binding(64, thread="blockIdx.x"):
        for ko in T.serial(2):
            for ki in T.thread_binding(64, thread="threadIdx.x"):
                with T.sblock("B"):
                    vi = T.axis.S(64, i)
                    vk = T.axis.R(128, ko * 64 + ki)
                    with T.init():
                        B[vi] = T.float32(0)
                    B[vi] = B[vi] + A[vi, vk]


@T.prim_func(s_tir=True)
def _pipelined(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    for tx in T.thread_binding(0, 16, thread="threadIdx.x"):
        for i in T.serial(
            0,
            16,
            annotations={"software_pipeline_stage": [0, 1], "software_pipeline_order": [0, 1]},
        ):
            with T.sblock():
                T.reads(A[tx, i])
                T.writes(C[tx, i])
                B = T.sblock_alloc_buffer((16, 1), dtype="float32", scope="shared")
                with T.sblock():
                    T.reads(A[tx, i])
                    T.writes(B[tx, 0])
                    B[tx, 0] = A[tx, i] * T.float32(2)
                with T.sblock():
                    T.reads(B[tx, 0])
                    T.writes(C[tx, i])
                    C[tx, i] = B[tx, 0] + T.float32(1)


@T.prim_func(s_tir=True)
def _host_scalars(A: T.Buffer(64, "float32"), B: T.Buffer(64, "bfloat16"), n: T.int32, m: T.int64):
    x = T.alloc_buffer((1,), "float32", scope="local")
    x[0] = T.Cast("float32", n) * T.float32(2)
    for i in T.thread_binding(64, thread="threadIdx.x"):
        A[i] = A[i] + x[0]
    for i in T.thread_binding(64, thread="threadIdx.x"):
        B[i] = B[i] + T.bfloat16(1) * T.Cast("bfloat16", m)
    for i in T.thread_binding(64, thread="threadIdx.x"):
        if i < n:
            A[i] = T.if_then_else(i > 2, A[i] / A[i - 1], A[i])


@T.prim_func(s_tir=True)
def _loops(
    A: T.Buffer((128,), "float32"),
    B: T.Buffer((128,), "float32"),
    C: T.Buffer((16, 16), "float32"),
    D: T.Buffer((16,), "float32"),
    F: T.Buffer((10,), "int32"),
):
    for bx in T.thread_binding(1, thread="blockIdx.x"):
        for tx in T.thread_binding(1, thread="threadIdx.x"):
            for i in range(1, 128, 5):
                B[i] = A[i] + T.float32(1)
            for i in T.serial(1):
                if F[i] > 5:
                    break
                F[i] = F[i] + 1
            for i in range(16):
                with T.sblock("sub"):
                    vi = T.axis.S(16, i)
                    sub = T.match_buffer(C[vi, 0:16], (16,), offset_factor=1)
                    for j in range(16):
                        sub[j] = sub[j] * T.float32(2)
            for i, k in T.grid(16, 16):
                with T.sblock("D"):
                    vi, vk = T.axis.remap("SR", [i, k])
                    with T.init():
                        D[vi] = T.float32(0)
                    D[vi] = D[vi] + C[vi, vk]
            for i in range(16):
                A[i] = T.Select(i > 0, A[i] / B[i - 1], T.float32(0))
            for i in T.serial(128, annotations={"pragma_loop_partition_hint": 1}):
                if i < 64:
                    A[i] = B[i]
                if 64 <= i:
                    A[i] = B[i] * T.float32(3)
            for i in range(16):
                A[i] = A[i]


@T.prim_func(s_tir=True)
def _int64_float8(
    A: T.Buffer((T.int64(64),), "float8_e4m3fn"), B: T.Buffer((T.int64(64),), "float8_e4m3fn")
):
    for i in T.thread_binding(T.int64(64), thread="threadIdx.x"):
        B[i] = A[i] + A[i]


@T.prim_func(s_tir=True)
def _warp_memory(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    for by in T.thread_binding(4, thread="blockIdx.x"):
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            with T.sblock():
                W = T.sblock_alloc_buffer((32,), "float32", scope="warp")
                W[tx] = A[by * 32 + tx]
                B[by * 32 + tx] = W[(tx + 1) % 32]


@T.prim_func(s_tir=True)
def _dynamic_shared(A: T.Buffer((256,), "float32"), B: T.Buffer((256,), "float32")):
    tx = T.launch_thread("threadIdx.x", 16)
    A_sh = T.alloc_buffer((16,), "float32", scope="shared.dyn")
    B_sh = T.alloc_buffer((16,), "float32", scope="shared.dyn")
    bx = T.launch_thread("blockIdx.x", 16)
    A_sh[tx] = A[bx * 16 + tx]
    B_sh[tx] = A[bx * 16 + (tx + 1) % 16]
    T.tvm_storage_sync("shared.dyn")
    B[bx * 16 + tx] = A_sh[(tx + 3) % 16] + B_sh[tx]


@T.prim_func(s_tir=True)
def _auto_copy(a: T.handle, b: T.handle):
    A = T.match_buffer(a, [128, 128])
    B = T.match_buffer(b, [128, 128])
    with T.sblock("root"):
        T.sblock_attr({"warp_execution": True})
        for ty in T.thread_binding(8, thread="threadIdx.y"):
            with T.sblock():
                A_sh = T.sblock_alloc_buffer([16, 128], dtype="float32", scope="shared.dyn")
                with T.sblock("A_shared"):
                    T.sblock_attr({"auto_copy": True})
                    for ax0, ax1 in T.grid(128, 16):
                        A_sh[ax1, ax0] = A[ax0, ax1]
                with T.sblock("B"):
                    T.sblock_attr({"auto_copy": True})
                    for ax1, ax0 in T.grid(16, 128):
                        B[ax1, ax0] = A_sh[ax1, ax0]


@T.prim_func(s_tir=True)
def _local_stage(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
    for by in T.thread_binding(2, thread="blockIdx.y"):
        for ty in T.thread_binding(2, thread="threadIdx.y"):
            for tx in T.thread_binding(2, thread="threadIdx.x"):
                with T.sblock():
                    T.reads(A[by * 32 : by * 32 + 32, 0:64])
                    T.writes(C[by * 32 : by * 32 + 32, 0:64])
                    A_sh = T.sblock_alloc_buffer([64, 64], dtype="float32", scope="shared")
                    for f0 in T.serial(128):
                        for f3 in T.vectorized(4):
                            with T.sblock("A_shared"):
                                T.reads(
                                    A[
                                        by * 32 + (f0 * 16 + ty * 8 + tx * 4 + f3) // 64,
                                        (f0 * 16 + ty * 8 + tx * 4 + f3) % 64,
                                    ]
                                )
                                T.writes(
                                    A_sh[
                                        by * 32 + (f0 * 16 + ty * 8 + tx * 4 + f3) // 64,
                                        (f0 * 16 + ty * 8 + tx * 4 + f3) % 64,
                                    ]
                                )
                                T.sblock_attr({"tirx.manifest_shared_memory_local_stage": 1})
                                A_sh[
                                    by * 32 + (f0 * 16 + ty * 8 + tx * 4 + f3) // 64,
                                    (f0 * 16 + ty * 8 + tx * 4 + f3) % 64,
                                ] = A[
                                    by * 32 + (f0 * 16 + ty * 8 + tx * 4 + f3) // 64,
                                    (f0 * 16 + ty * 8 + tx * 4 + f3) % 64,
                                ]
                    for i, j in T.grid(16, 64):
                        with T.sblock("C"):
                            vi = T.axis.S(64, by * 32 + ty * 16 + i)
                            vj = T.axis.S(64, j)
                            T.reads(A_sh[vi, vj])
                            T.writes(C[vi, vj])
                            C[vi, vj] = A_sh[vi, vj] * T.float32(2)


@T.prim_func(s_tir=True)
def _iket_two_kernels(A: T.Buffer((32,), "int32")):
    for tx in T.thread_binding(32, thread="threadIdx.x"):
        T.cuda.iket.mark("first", tx)
        A[tx] = A[tx] + 1
    for tx in T.thread_binding(32, thread="threadIdx.x"):
        T.cuda.iket.mark("second")
        A[tx] = A[tx] + 2


PARTITION = {
    "s_tir.LoopPartition": {"partition_const_loop": True},
    "s_tir.HoistIfThenElse": {"support_block_scope_hoisting": True},
}
INSTRUMENTED = {"tirx.instrument_bound_checkers": True, "tirx.instrument_lwp": True}
# name: (program, target, pipeline, pass-context config, whether it carries IKET marks)
PROGRAMS = {
    "s_tir-matmul": (_matmul, "cuda", "s_tir", {}, False),
    "s_tir-row-sum": (lambda: _row_sum, "cuda", "s_tir", {}, False),
    "s_tir-pipelined": (lambda: _pipelined, "cuda", "s_tir", {}, False),
    "s_tir-host-scalars": (lambda: _host_scalars, "cuda", "s_tir", INSTRUMENTED, False),
    "s_tir-loops": (lambda: _loops, "cuda", "s_tir", PARTITION, False),
    "s_tir-int64-float8": (lambda: _int64_float8, "cuda", "s_tir", {}, False),
    "s_tir-warp-memory": (lambda: _warp_memory, "cuda", "s_tir", {}, False),
    "s_tir-dynamic-shared": (lambda: _dynamic_shared, "cuda", "s_tir", {}, False),
    "s_tir-auto-copy": (lambda: _auto_copy, "cuda", "s_tir", {}, False),
    "s_tir-local-stage": (lambda: _local_stage, "cuda", "s_tir", {}, False),
    "tirx-iket-mark": (lambda: _iket_mark, SM90, "tirx", {}, True),
    "tirx-iket-token-loop": (lambda: _iket_token_loop, SM90, "tirx", {}, True),
    "tirx-iket-two-kernels": (lambda: _iket_two_kernels, SM90, "tirx", {}, True),
    "tirx-bfloat16-float8": (bfloat16_float8, SM75, "tirx", {}, False),
}


def _marks(iket):
    # the first pass that writes its input stops the compile: AnnotateEntryFunc (every
    # program), then SplitHostDevice (every program here has a kernel), then LowerIket
    return [ANNOTATE, SPLIT, *([IKET] if iket else [])]


@pytest.mark.parametrize(
    "program", [pytest.param(name, marks=_marks(spec[4])) for name, spec in PROGRAMS.items()]
)
def test_compile_under_immutable_module(program):
    """No pass of tvm.compile changes the module it is given."""
    make, target, pipeline, config, _ = PROGRAMS[program]
    with tvm.transform.PassContext(config={**config, IMMUTABLE: True}):
        tvm.compile(make(), target=tvm.target.Target(target), tir_pipeline=pipeline)


def test_inject_double_buffer_leaves_its_input_unchanged():
    """InjectDoubleBuffer, applied alone, doubles the buffer in a new module only."""

    @I.ir_module
    class Before:
        @T.prim_func(s_tir=True)
        def main(A: T.handle("float32"), C: T.handle("float32")):
            A_buf = T.decl_buffer((400,), "float32", data=A)
            C_buf = T.decl_buffer((4,), "float32", data=C)
            T.launch_thread("threadIdx.x", 1)
            for i in range(100):
                B = T.alloc_buffer((4,), "float32", scope="shared")
                with T.attr(B.data, "double_buffer_scope", 1):
                    for j in range(4):
                        B[j] = A_buf[i * 4 + j]
                for j in range(4):
                    C_buf[j] = B[j] + T.float32(1.0)

    Expected = Before.clone()
    with tvm.transform.PassContext(config={IMMUTABLE: True}):
        After = tvm.s_tir.transform.InjectDoubleBuffer()(Before)
    assert not tvm_ffi.structural_equal(After, Expected)
    tvm.ir.assert_structural_equal(Before, Expected)


if __name__ == "__main__":
    tvm.testing.main()
