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
"""Classes the generator finds under the reference fixes that are known (this repository only).

The CI campaign (last line of .ci/run) fails on any class not listed here. A ``*`` in an entry
stands for any text (keys write their numbers as ``N``). Each reason says why the class is
expected under the reference fixes today: a released-TVM defect no reference fix covers (to be
reported), a defect of the fixes themselves (to be fixed there), or a known limit of the
generator/oracle.
"""

KNOWN = {
    "d:ice-on-valid:Kernel * takes the uint* scalar *, which no GPU runtime can pass*": "report "
    "uint64_scalar: its reference fix rejects a uint64 kernel scalar at compile time with this "
    "user-facing error, which the oracle's validity rule (uint64 is a valid dtype) counts as a "
    "valid program rejected",
    # --- released-TVM defects that no reference fix addresses (candidate reports)
    "e:tirx.SplitHostDevice:input-changed": "report split_host_device_inplace: the reference "
    "fix runs TVM's pass on a copy, which shields the caller's module; the unfixed C++ pass "
    "still writes the copy it is given, and the instrument sees that copy change",
    "e:tirx.AnnotateEntryFunc:input-changed": "report annotate_entry_func_inplace: as for "
    "SplitHostDevice, the reference fix shields the caller, the wrapped pass still writes its copy",
    "b:kernel-scalar-uint64": "uint64 kernel scalars cannot launch (known; the narrow-scalar fix "
    "widens only types narrower than 32 bits)",
    "d:ice-on-valid:Check failed: dtype.code() == DLDataTypeCode::kDLFloat*": "report "
    "bfloat16_scalar (no reference fix): a bfloat16 argument stops MakePackedAPI at an ICHECK",
    "d:ice-on-valid:Check failed: t.code() == DLDataTypeCode::kDLFloat*": "report "
    "bfloat16_scalar (no reference fix): the same ICHECK, other wording (cuda)",
    "d:ice-on-valid:Check failed: (!to.MatchesElementType(DLDataTypeCode::kDLBfloat*": "report "
    "bfloat16_scalar (no reference fix): BF16 storage not legalized on the host (TVM main, "
    "tvm-tirx's argument)",
    "d:ice-on-valid:Check failed: (ffi::StructuralEqual()(value->ty, var->ty))*": "a Bind whose "
    "value type differs from its variable after a pass (a bfloat16 T.let after "
    "BF16ComputeLegalize: report bfloat16_scalar, no reference fix; vector values: new)",
    "d:ice-on-valid:Do not support pod argument type*": "bool/bfloat16/narrow host arguments are "
    "refused by MakePackedAPI with an internal error (new)",
    "d:ice-on-valid:assert *": "MakePackedAPI's argument checks for bfloat16 arguments fail to "
    "build (new)",
    "d:ice-on-valid:dtype mismatch on TensorStore*": "a bfloat16 value stored into its storage "
    "type after BF16 legalization (report bfloat16_scalar, no reference fix; tvm-tirx)",
    "d:ice-on-valid:Error in codegen: llvm*": "host codegen error on bfloat16/narrow host values "
    "(new; tvm-tirx)",
    "d:ice-on-invalid:Error in codegen: llvm*": "host codegen error on an invalid program, as an "
    "internal error instead of a diagnostic (tvm-tirx)",
    "d:ice-on-valid:*CodeGenWebGPU*": "WebGPU rejects 64-bit and 8/16-bit types with an ICHECK "
    "instead of a diagnostic (new; the generator does not filter dtypes per target)",
    "d:ice-on-invalid:*CodeGenWebGPU*": "the same WebGPU ICHECK on an invalid program",
    "d:ice-on-valid:Cannot convert type float* to Metal type*": "Metal has no float64: refused "
    "with a fatal error (a limit of the target; the generator does not filter dtypes per target)",
    "d:crash:*": "a segfault while judging a program (not minimized; see REPORT.md)",
    "f:*": "print -> parse is not the identity after some passes (printer/parser defects: "
    "`X.source.data` after FlattenBuffer is report printer_param_data, which its reference "
    "fix removes; new: a one-element parameter's load printed as `X`, metadata in "
    "MakePackedAPI's asserts, a lost storage_scope of a bound pointer, vector kernel "
    "parameters; see REPORT.md)",
    # --- defects of the reference fixes found by the generator (for reference_fixes/)
    "b:kernel-scalar-narrow": "under the fixes: vector kernel parameters of narrow lanes, which "
    "the narrow-scalar fix leaves as they are (the runtimes refuse vector scalars anyway)",
    "d:accepts-invalid:*": "under the fixes: programs the oracle's validity rule calls invalid "
    "that still compile (views of host memory by let-bound pointers on 0.27 plain-assignment "
    "cells); a host store into a host-allocated global buffer is rejected since the VerifyMemory "
    "fix counts such buffers as device memory",
    "d:ice-on-valid:A kernel loads an element of*": "under the fixes: the host-scalar fix rejects "
    "a program the oracle takes as valid (a vector cell or a kernel-written global read by "
    "value; to triage between the fix and the oracle's validity rule)",
    "e:reference_fixes.*": "the reference fixes' own passes change their input in place",
    "c:*": "a launch received a value other than the host's (vector cells; unverified, may be a "
    "replay artefact)",
    "g:relax.AllocateWorkspace:ill-formed*": "apache/tvm#20479 (known; fixed by the reference fix)",
    "d:ice-on-valid:relax.AllocateWorkspace*": "AllocateWorkspace ICHECKs / mismatches when the "
    "caller of a sized Composite is not a Codegen function (new; fixed by the reference fix)",
}
