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
"""The registry of the bug reports this repository tests: each report's key (its folder,
bugs/<key>/), the phrase its xfail marks carry, its patch, its upstream test files, the
TVM lines its reference fix works on, and the reports whose unfixed bug kills the process on
the CPU (KILLS_THE_PROCESS: their bug xfails are ``run=False``).

Every strict xfail of an upstream test file carries a reason that contains its report's
phrase (case-insensitive). The root conftest, export_to_tvm.py and their tests read this
table; nothing else spells the phrases out.

A report counts while its folder is there: retiring a bug is deleting bugs/<key>/, its patch
and its upstream tests (UPSTREAM_FILES), and every table below then leaves it out.
"""

from pathlib import Path

BUGS = Path(__file__).resolve().parent / "bugs"


def present(table, report=None):
    """``table`` without the entries of a retired report (its folder bugs/<key>/ gone): a dict
    whose keys are report keys or tuples that start with one (``(report, layer)``), or a
    sequence or set of either (its type kept). ``report(entry)`` names an entry's report where
    it is neither (e.g. a dict of names whose values start with the report)."""

    def here(entry):
        if report is not None:
            key = report(entry)
        else:
            key = entry[0] if isinstance(entry, tuple) else entry
        return (BUGS / key).is_dir()

    if isinstance(table, dict):
        return {entry: value for entry, value in table.items() if here(entry)}
    return type(table)(entry for entry in table if here(entry))


# report key -> the phrase every xfail reason for that report contains
BUG_REPORTS = present(
    {
        "host_scalar": "host-level scalar",
        "allocate_workspace": "apache/tvm#20479",
        "verify_memory": "VerifyMemory",
        "narrow_scalar": "narrow kernel scalar",
        "printer_cell": "TVMScript scalar sugar",
        "split_host_device_inplace": "SplitHostDevice changes its input",
        "annotate_entry_func_inplace": "AnnotateEntryFunc changes its input",
        "uint64_scalar": "uint64 kernel scalar",
        "printer_param_data": "one-element buffer parameter prints",
        "bfloat16_scalar": "bfloat16 host scalar",
        "lower_iket_inplace": "LowerIket changes its input",
        # reported as texts only (no reference fix, no patch: NO_REFERENCE_FIX says why)
        "bfloat16_address_of_view": "bfloat16 address_of view",
        "bfloat16_store_nan": "bfloat16 NaN store",
        "reinterpret_of_constant": "reinterpret of a constant",
        "codegen_missing_dtype": "dtype the target lacks",
        "webgpu_view_at_address": "WebGPU view at an address",
        "storage_rewrite_address_of_view": "StorageRewrite strips an allocation",
        "storage_rewrite_annotations": "StorageRewrite drops annotations",
        "vthread_dynamic_extent": "non-constant vthread extent",
        "double_buffer_compact": "double_buffer_scope names a stale buffer",
        "printer_scalar_index": "scalar name drops a non-zero index",
        "pointer_if_then_else": "if_then_else of pointers",
        "throw_last_error_type": "throw_last_error type",
        "printer_view_layout": "view sugar parses back with the parent's layout",
        "tirx_default_pipeline": "tirx default pipeline calls LowerInitBlock",
        "workspace_device_id": "host workspace without a device id",
        "unify_thread_binding_dtype": "UnifyThreadBinding IterVar dtype",
        "c_host_float_literal": "C float literal",
        "c_target_intrinsics": "c target math intrinsics",
        "webgpu_float_literal": "WebGPU float literal",
        "flatten_buffer_itervar_dom": "FlattenBuffer stale IterVar dom",
        "cthread_binding": "cthread lowered as a thread launch",
        "bfloat16_vector_broadcast": "bfloat16 vector broadcast",
    }
)

# reports without a reference fix (no small fix exists; the reason): their bug tests stay
# strict xfails under --reference-fixes, and no wrong fixes are written for them
_CODEGEN = "text only: a code generator's C++ fix ({})"
_STORAGE_REWRITE = "text only: StorageRewrite's C++ ({})"
NO_REFERENCE_FIX = present(
    {
        "bfloat16_address_of_view": "the planner inside BF16ComputeLegalize has no hook a "
        "Python pass can take over; a reference fix would re-implement the pass (C++ fix: "
        "about five lines in ComputeLegalizePlanner)",
        "bfloat16_store_nan": "the store's rounding is inside BF16ComputeLegalize; a reference "
        "fix would extend the bfloat16_scalar fix's re-implementation of that pass (C++ fix: "
        "one line on top of patch 0009)",
        "storage_rewrite_address_of_view": _STORAGE_REWRITE.format("LinearAccessPatternFinder"),
        "storage_rewrite_annotations": _STORAGE_REWRITE.format("PrepareNewAlloc"),
        "double_buffer_compact": "text only: CompactBufferAllocation's BufferCompactor / "
        "InjectDoubleBuffer C++",
        "pointer_if_then_else": "text only: the fix is the FFI signature of "
        "tirx._OpIfThenElse (C++)",
        "throw_last_error_type": "text only: the type LowerTVMBuiltin/MakePackedAPI build the "
        "call with (C++; tvm-tirx has no source)",
        "printer_view_layout": "text only: printer or Buffer.view, the maintainers' choice",
        "tirx_default_pipeline": "text only: one line of tvm.tirx.compilation_pipeline (drop the "
        "stale 'default' entry or call s_tir's pass); nothing to install",
        "workspace_device_id": "text only: LowerTVMBuiltin's C++ (the device id a CPU workspace "
        "takes when no tensor argument defines one)",
        "unify_thread_binding_dtype": "text only: one argument in UnifyThreadBinding's C++ "
        "(the dtype of EmitLaunchThreads' placeholder var)",
        "c_host_float_literal": _CODEGEN.format("CodeGenC's PrintConst"),
        "c_target_intrinsics": "text only: the default intrinsic rules' C++ (intrin_rule.cc: "
        "rules for fabs, exp2, exp10 and fmod)",
        "webgpu_float_literal": _CODEGEN.format("CodeGenWebGPU's FloatImm printer"),
        "flatten_buffer_itervar_dom": "text only: FlattenBuffer's (or StmtMutator's) AttrStmt "
        "visitor in C++ (rewrite the IterVar's dom)",
        "cthread_binding": "text only: one condition in each of three C++ builders of a thread "
        "launch (MakeLaunchThread of LowerOpaqueBlock and of LowerTIRxOpaque, TVMScript's "
        "LaunchThread): the tags runtime::ThreadScope calls virtual",
        "bfloat16_vector_broadcast": "text only: BF16StorageLegalize's C++ in the released "
        "package (a Broadcast rebuilt from its legalized value), whose source is not here",
    }
)
# the reports with a Python reference fix (bugs/<key>/reference_fix.py)
REFERENCE_FIXED = tuple(key for key in BUG_REPORTS if key not in NO_REFERENCE_FIX)
# the reports whose C++ fix is in patches/ (the patch number; check_patches.PATCH_TABLE): what
# a patched source build carries, and what --expect-fixed alone means
PATCHED = present(
    {
        "allocate_workspace": "0001",
        "host_scalar": "0002",
        "verify_memory": "0003",
        "narrow_scalar": "0004",
        "printer_cell": "0005",
        "split_host_device_inplace": "0006",
        "annotate_entry_func_inplace": "0006",
        "uint64_scalar": "0007",
        "printer_param_data": "0008",
        "bfloat16_scalar": "0009",
        "lower_iket_inplace": "0010",
        "codegen_missing_dtype": "0014",
        "printer_scalar_index": "0011",
        "reinterpret_of_constant": "0012",
        "vthread_dynamic_extent": "0013",
        "webgpu_view_at_address": "0015",
    }
)
# the reports whose patch changes what an earlier patch of the series introduced (0008 and
# 0011 print names that 0005's declarations define): their wrong fixes are tried on top of
# those reports' reference fixes, as the series has them (the root conftest installs them
# with ``--wrong-fix`` and expects them fixed)
BUILDS_ON = present(
    {
        "printer_param_data": ("printer_cell",),
        "printer_scalar_index": ("printer_cell", "printer_param_data"),
    }
)
# the reports whose unfixed bug kills the process on the CPU (a crash, nothing raised) -> why:
# their bug xfails say ``run=False`` instead of ``raises=`` (the root conftest runs those tests
# only where the report is expected fixed); a child-process twin in bugs/<key>/proof records
# the signal
KILLS_THE_PROCESS = present(
    {
        "vthread_dynamic_extent": "InjectVirtualThread dereferences the null IntImm cast of a "
        "non-constant extent: SIGSEGV inside the pass",
    }
)
# the reference fixes written for apache/tvm-tirx too (through harness/tvm_line.py);
# allocate_workspace is about relax, which that package does not have; uint64_scalar is a
# runtime of apache/tvm (that package's runtime API differs: the OpenCL runtime sources do
# not build against it)
ON_TVM_TIRX = tuple(
    key
    for key in (
        "host_scalar",
        "verify_memory",
        "narrow_scalar",
        "split_host_device_inplace",
        "annotate_entry_func_inplace",
        "lower_iket_inplace",
        "codegen_missing_dtype",
        "webgpu_view_at_address",
    )
    if key in BUG_REPORTS
)
# report key -> the upstream test files that hold its tests (a file of several reports is
# listed under each: retiring one of them removes its tests from that file); a report filed as
# a text only (NO_REFERENCE_FIX) has none
UPSTREAM_FILES = present(
    {
        "host_scalar": (
            "tests/python/codegen/test_target_codegen_opencl.py",
            "tests/python/tirx-transform/test_tir_transform_lower_tvm_builtin.py",
            "tests/python/tirx-transform/test_tir_transform_split_host_device.py",
            "tvm-tirx/tests/python/backend/cuda/test_kernel_scalar_params.py",
            "tvm-tirx/tests/python/tirx/transform/test_lower_tvm_builtin.py",
            "tvm-tirx/tests/python/tirx/transform/test_split_host_device.py",
        ),
        "allocate_workspace": ("tests/python/relax/test_transform_allocate_workspace.py",),
        "verify_memory": (
            "tests/python/tirx-analysis/test_tir_analysis_verify_memory.py",
            "tvm-tirx/tests/python/tirx/analysis/test_verify_memory.py",
        ),
        "narrow_scalar": (
            "tests/python/codegen/test_target_codegen_opencl.py",
            "tests/python/tirx-transform/test_tir_transform_split_host_device.py",
            "tvm-tirx/tests/python/backend/cuda/test_kernel_scalar_params.py",
            "tvm-tirx/tests/python/tirx/transform/test_split_host_device.py",
        ),
        "printer_cell": ("tests/python/tirx/test_parser_printer.py",),
        "split_host_device_inplace": (
            "tests/python/tirx-transform/test_tir_transform_split_host_device.py",
            "tvm-tirx/tests/python/tirx/transform/test_split_host_device.py",
        ),
        "annotate_entry_func_inplace": (
            "tests/python/tirx-transform/test_tir_transform_helpers.py",
            "tvm-tirx/tests/python/tirx/transform/test_helpers.py",
        ),
        "uint64_scalar": (
            "tests/python/codegen/test_target_codegen_cuda.py",
            "tests/python/codegen/test_target_codegen_opencl.py",
            "tvm-tirx/tests/python/backend/cuda/test_kernel_scalar_params.py",
        ),
        "printer_param_data": ("tests/python/tirx/test_parser_printer.py",),
        "bfloat16_scalar": (
            "tests/python/codegen/test_target_codegen_llvm.py",
            "tests/python/tirx-transform/test_tir_transform_bf16_legalize.py",
            "tvm-tirx/tests/python/tirx/transform/test_make_packed_api.py",
        ),
        "lower_iket_inplace": (
            "tests/python/tirx/iket/test_iket_profiler.py",
            "tvm-tirx/tests/python/backend/cuda/test_lower_iket.py",
        ),
        "codegen_missing_dtype": (
            "tests/python/codegen/test_target_codegen_metal.py",
            "tests/python/codegen/test_target_codegen_webgpu.py",
            "tvm-tirx/tests/python/backend/metal/test_codegen_metal.py",
            "tvm-tirx/tests/python/backend/webgpu/test_codegen_webgpu.py",
        ),
        "printer_scalar_index": ("tests/python/tirx/test_parser_printer.py",),
        "reinterpret_of_constant": (
            "tests/python/codegen/test_target_codegen_c_host.py",
            "tests/python/codegen/test_target_codegen_opencl.py",
        ),
        "vthread_dynamic_extent": (
            "tests/python/s_tir/transform/test_s_tir_transform_inject_virtual_thread.py",
        ),
        "webgpu_view_at_address": (
            "tests/python/codegen/test_target_codegen_webgpu.py",
            "tvm-tirx/tests/python/backend/webgpu/test_codegen_webgpu.py",
        ),
    }
)


def report_of(text):
    """The key of the report ``text`` names, or None."""
    for key, phrase in BUG_REPORTS.items():
        if phrase.lower() in text.lower():
            return key
    return None
