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
"""The classes the CI campaign accepts under the reference fixes (this repository only).

The CI campaign (last line of .ci/run, ``--reference-fixes``) fails on any class not listed
here. Each entry is one class: its clause, its kind, the pass (clause (d) keys carry it) and
the normalized message, written out in full (keys write their numbers as ``N``); ``[tvm]`` or
``[tirx]`` before a key limits it to that line. Each reason names its cause and either a
report of bug_reports.py that no reference fix covers on that line (``report <key>: ...``) or
``open: <cause>, <reproducer under generator/open/>``, or a fix's rule working as designed
(``design: <cause>, <its script in the report's folder>``). A class of a report that a reference
fix fixes is never listed: under the fixes it is a regression (tests/tools/test_campaign.py
checks all of this). A code generator's ValueError for a type its target lacks (patch 0014),
and WebGPU's for a kernel's view over an address (patch 0015), are no class at all: the
oracle's clause (d) accepts them (oracle.refuses_a_type_it_lacks and
oracle.refuses_a_view_it_cannot_express).
"""

_THROW = (
    "report throw_last_error_type: `T.throw_last_error()` (int32) parses back with another type "
    "after MakePackedAPI/LowerTVMBuiltin, every function with a launch"
)

_BF16 = "report bfloat16_scalar (no fix on tvm-tirx): a bfloat16 host scalar does not compile, {}"

_BF16_ALIAS = (
    "report bfloat16_address_of_view: a bfloat16 buffer one kernel writes and another reads "
    "through a T.address_of view (the host's or one the reading kernel declares) is lowered to "
    "two element types for a target without bfloat16 arithmetic (the writer "
    "stores float32, the reader loads bfloat16 bits; released and under the fixes alike; "
    "after BF16ComputeLegalize the view's pointer keeps the bfloat16 type, which print -> "
    "parse does not keep)"
)

KNOWN = {
    # --- apache/tvm 0.27
    "[tvm] d:ice-on-invalid:tirx.StorageRewrite:Check failed: (it != info_map_.end()) is "
    "false: Load/Store of buffer v (Nx) occurred before its declaration.": "report "
    "storage_rewrite_address_of_view: StorageRewrite stops at an internal check on a host store "
    "through a T.address_of view of a global buffer a kernel reads, before VerifyMemory rejects "
    "the invalid program with its message (released and patched alike)",
    # any device spelling (shared, global, param), the view the host's or the kernel's own
    "[tvm] c:wrong-value:bfloat16:*:*address_of": _BF16_ALIAS,
    "[tvm] c:device-wrong-value:bfloat16:*:*address_of": _BF16_ALIAS,
    "[tvm] f:reference_fixes.bfloat16_scalar.compute_legalize:differs:main:dtype": _BF16_ALIAS,
    "[tvm] f:reference_fixes.SplitHostDeviceWithHostValues:differs:kernel:dtype": _BF16_ALIAS,
    "[tvm] f:tirx.MakePackedAPI:reparse:error: Mismatched type on argument #N when calling: "
    "`prim._OpIfThenElse(N: ir.Expr, N: ir.Expr, N: ir.Expr, N: ir.Span) -> ir.Expr`. "
    "Expected `ir.Expr` but got ": "report pointer_if_then_else: MakePackedAPI's "
    "tensor-argument handle prints as `T.if_then_else(..., T.handle_add_byte_offset(...), ...)`, "
    "which the parser refuses (an ir.Call where an ir.Expr is expected), every function with a "
    "tensor argument",
    "[tirx] d:ice-on-valid:tirx.BF16StorageLegalize:dtype mismatch on TensorStore: tensor's "
    "dtype is `T.uintN`, the lanes of indexing are: `N`, the scalability is": _BF16.format(
        "a cell a cuda kernel reads fails BF16 storage legalization"
    ),
    "[tirx] d:ice-on-valid:codegen:Check failed: (!to.MatchesElementType(DLDataTypeCode::"
    "kDLBfloat, N)) is false: BFN needs to be storaged lowered first": _BF16.format(
        "an argument stops the llvm code generator"
    ),
    "[tirx] d:ice-on-valid:tirx.BF16StorageLegalize:dtype mismatch on TensorStore: tensor's "
    "dtype is `T.uintN`, the lanes of indexing are: `N`, the scalability is: `N`, but RHS's "
    "dtype is `T.bfloatN`": _BF16.format("a cell a cuda kernel reads (the message on one line)"),
    "[tirx] d:ice-on-invalid:codegen:Check failed: (!to.MatchesElementType(DLDataTypeCode::"
    "kDLBfloat, N)) is false: BFN needs to be storaged lowered first": _BF16.format(
        "an argument stops the llvm code generator (invalid program)"
    ),
    "[tirx] d:crash:codegen:signal-11": _BF16.format(
        "an unused bfloat16 host T.let beside a cuda (sm_80) kernel kills the compile (SIGSEGV) "
        "after the passes; on apache/tvm patch 0009 and its reference fix compile it"
    ),
    "[tvm] f:reference_fixes.bfloat16_scalar.make_packed_api:reparse:error: Mismatched type on "
    "argument #N when calling: `prim._OpIfThenElse(N: ir.Expr, N: ir.Expr, N: ir.Expr, N: "
    "ir.Span) -> ir.Expr`. Expected `ir.Expr` but got ": "report pointer_if_then_else: the same "
    "MakePackedAPI output as tirx.MakePackedAPI's above, under the bfloat16 fix's wrapper of "
    "that pass",
    "[tvm] f:s_tir.UnifyThreadBinding:differs:main:dtype": "report unify_thread_binding_dtype: "
    "a thread binding of int64 extent (a vthread beside a kernel, any thread tag) becomes a "
    "thread loop whose IterVar var is int32 beside its int64 loop var; print -> parse gives it "
    "the loop var's dtype (released and under the fixes alike)",
    # --- apache/tvm-tirx 0.1.0a4
    "[tirx] f:tirx.MakePackedAPI:differs:main:dtype": _THROW,
    "[tirx] f:tirx.LowerTVMBuiltin:differs:main:dtype": _THROW,
    "[tirx] b:kernel-scalar-uint64": "report uint64_scalar: its reference fix is a runtime "
    "of apache/tvm (patch 0007); tvm-tirx has none, so a uint64 kernel scalar stays unlaunchable",
    "d:ice-on-valid:reference_fixes.HostLocalBuffers:A kernel loads an element of `v`, "
    'a "local" buffer of the host code that the host code also loads, stores or passes to a '
    "call. Such a buffer is host memory, and": "design: not a TVM defect; patch 0002's rule "
    "(reference fix host_scalar) rejects a kernel's load of an element of a host array with a "
    "user-facing ValueError on both lines; on apache/tvm s_tir.CompactBufferAllocation shrinks "
    "the array to the element used before SplitHostDevice unless the host also hands the array "
    "to a call (then apache/tvm rejects it too), tvm-tirx has no such pass (released, both "
    "allocate the array in a device workspace that the host writes: host_scalar's defect); "
    "whether an array element should pass by value is for the maintainers, "
    "bugs/host_scalar/host_array_element_tirx.py",
}
