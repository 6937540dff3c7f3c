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
"""Check that every patch in patches/ is a well-formed ``git format-patch -k`` file that
touches only the files it should, carries no control characters, and that the tests it
adds are this repository's upstream test files with the bug xfail marks removed (as
export_to_tvm.py merges them into TVM's files).

    python scripts/check_patches.py                 # exit 0 all good, 1 findings, 2 cannot run
    python scripts/check_patches.py --tests-of P    # the tests that belong with patch P
    python scripts/check_patches.py --companions-of P   # other files patch P may touch
"""

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export_to_tvm import (
    ExportError,
    _cut_defs,
    _defined_names,
    adapt_launch,
    drop_bug_xfails,
    find_ruff,
    select_names,
    split_ours,
)

ROOT = Path(__file__).resolve().parent.parent
PATCHES = ROOT / "patches"

SHD = "tests/python/tirx-transform/test_tir_transform_split_host_device.py"
CUDA = "tests/python/codegen/test_target_codegen_cuda.py"
OPENCL = "tests/python/codegen/test_target_codegen_opencl.py"
PRINTER = "tests/python/tirx/test_parser_printer.py"
WEBGPU = "tests/python/codegen/test_target_codegen_webgpu.py"
# the narrow-scalar tests in the two files it shares with the host-scalar fix
NARROW = {
    SHD: [
        "test_narrow_kernel_scalar_passed_widened",
        "test_narrow_param_of_kernel_written_as_module_function_widened",
        "test_kernel_no_runtime_launches_keeps_narrow_scalar",
    ],
    # no CUDA test: the OpenCL one runs the widened scalars (the proof tests run them on CUDA)
    CUDA: [],
    OPENCL: ["test_opencl_narrow_scalar_argument"],
}
# the tests of patch 0006 (the two passes that changed their input) in the file it shares
INPLACE = {
    SHD: [
        "test_split_host_device_leaves_its_input_unchanged",
        "test_split_host_device_output_keeps_the_module_attributes",
        "test_split_host_device_with_nothing_to_split_converts_to_ssa_and_lowers_calls",
    ],
}
# the tests of patch 0007 (uint64 kernel scalars) in the files it shares with 0002 and 0004
UINT64 = {
    CUDA: ["_UINT64", "test_cuda_64_bit_scalar_argument"],
    OPENCL: ["_UINT64", "test_opencl_64_bit_scalar_argument"],
}
# the two patches of the WebGPU code generator's test file: the types it lacks (0014), a
# kernel's view at an address (0015)
WEBGPU_TESTS = {
    "0014": [
        "_cast_kernel",
        "_float64_constant_argument",
        "test_webgpu_rejects_a_type_it_lacks",
        "test_webgpu_says_why_it_lacks_a_type",
        "test_webgpu_compiles_the_types_it_has",
        "_argument_kernel",
        "test_webgpu_codegen_rejects_a_narrow_kernel_argument",
        "_float64_in_kernel",
    ],
    "0015": [
        "_view_at_address",
        "test_webgpu_rejects_a_view_at_an_address",
        "_view_of_parameter",
        "_view_of_shared_allocation",
        "_host_view_at_address",
        "test_webgpu_compiles_the_views_it_can_express",
        "_view_in_a_refused_kernel",
        "test_webgpu_keeps_the_error_it_meets_before_a_view",
    ],
}
# the tests of patch 0012 (a reinterpret of a constant) in the OpenCL file 0002 carries
REINTERPRET = {
    OPENCL: [
        "test_opencl_reinterpret_keeps_the_bits",
        "test_opencl_reinterpret_of_constant_takes_the_address_of_a_variable",
    ]
}
# the tests of patch 0008 (one-element buffers that are not scalar names) in 0005's file
PARAM_DATA = {
    PRINTER: [
        "_one_element_parameter",
        "_one_element_parameter_data",
        "_one_element_match_buffer",
        "_one_element_parameter_shadowed",
        "test_one_element_buffer_round_trips",
        "test_one_element_parameter_store_prints_its_index",
        "test_scalar_names_round_trip",
        "test_allocated_addr_load_round_trips",
    ],
}
# the tests of patch 0011 (a scalar name's access at an index other than 0) in 0005's file
SCALAR_INDEX = {
    PRINTER: [
        "_scalar_name_access",
        "test_scalar_name_access_keeps_its_index",
        "test_scalar_name_access_at_zero_prints_the_name",
        "test_scalar_name_statement_prints_as_in_its_function",
    ],
}
# each patch, by its number: the source it fixes, the other files it may touch, and this
# repository's tests it carries ({file: None for all of it, or "a,b" / "-a,b" to select
# top-level definitions, as export_to_tvm.py --only PATH::NAMES takes them)
PATCH_TABLE = {
    "0001": (
        "src/relax/transform/allocate_workspace.cc",
        # TVM's cutlass attention test expects the workspace where the pass now allocates it
        ["tests/python/relax/test_codegen_cutlass.py"],
        {"tests/python/relax/test_transform_allocate_workspace.py": None},
    ),
    "0002": (
        "src/tirx/transform/lower_tvm_builtin.cc",
        # the allocation annotation's documentation
        ["src/tirx/transform/split_host_device.cc", "include/tvm/tirx/stmt.h"],
        {
            "tests/python/tirx-transform/test_tir_transform_lower_tvm_builtin.py": None,
            SHD: "-" + ",".join(NARROW[SHD] + INPLACE[SHD]),
            OPENCL: "-" + ",".join(NARROW[OPENCL] + UINT64[OPENCL] + REINTERPRET[OPENCL]),
        },
    ),
    "0003": (
        "src/tirx/analysis/verify_memory.cc",
        # an existing TVM test whose kernel relied on the verifier's silence (no thread index)
        ["tests/python/tirx/iket/test_iket_profiler.py"],
        {"tests/python/tirx-analysis/test_tir_analysis_verify_memory.py": None},
    ),
    "0004": (
        "src/tirx/transform/split_host_device.cc",
        [],
        {path: ",".join(names) for path, names in NARROW.items() if names},
    ),
    "0005": (
        "src/tirx/script/printer/stmt.cc",
        ["src/tirx/script/printer/buffer.cc", "python/tvm/tirx/script/builder/ir.py"],
        {PRINTER: "-" + ",".join(PARAM_DATA[PRINTER] + SCALAR_INDEX[PRINTER])},
    ),
    "0006": (
        "src/tirx/transform/primfunc_utils.cc",
        ["src/tirx/transform/split_host_device.cc"],
        {
            SHD: ",".join(INPLACE[SHD]),
            "tests/python/tirx-transform/test_tir_transform_helpers.py": None,
        },
    ),
    "0007": (
        "src/runtime/pack_args.h",
        # the comment that lists the scalar types the device runtimes pass
        ["src/tirx/transform/split_host_device.cc"],
        {CUDA: ",".join(UINT64[CUDA]), OPENCL: ",".join(UINT64[OPENCL])},
    ),
    "0008": (
        "src/tirx/script/printer/buffer.cc",
        # the scalar names' record (utils.h) and the other two shorthand sites
        [
            "src/tirx/script/printer/utils.h",
            "src/tirx/script/printer/expr.cc",
            "src/tirx/script/printer/stmt.cc",
        ],
        {PRINTER: ",".join(PARAM_DATA[PRINTER])},
    ),
    "0009": (
        "src/tirx/transform/unsupported_dtype_legalize.cc",
        # MakePackedAPI's decoding of a bfloat16 parameter and return value, the type the FFI
        # passes it as, the NaN-keeping rounding both use, and the pipelines' second
        # BF16ComputeLegalize (after MakePackedAPI)
        [
            "src/tirx/transform/tvm_ffi_binder.cc",
            "src/tirx/transform/ir_utils.h",
            "src/tirx/transform/make_packed_api.cc",
            "src/tirx/transform/dtype_conversion.h",
            "src/tirx/transform/dtype_conversion.cc",
            "python/tvm/s_tir/pipeline.py",
            "python/tvm/tirx/compilation_pipeline.py",
        ],
        {
            "tests/python/tirx-transform/test_tir_transform_bf16_legalize.py": None,
            "tests/python/codegen/test_target_codegen_llvm.py": None,
        },
    ),
    "0010": (
        "src/backend/cuda/transforms/lower_iket.cc",
        [],
        {"tests/python/tirx/iket/test_iket_profiler.py": None},
    ),
    "0011": (
        "src/tirx/script/printer/buffer.cc",
        # the index test (utils.h), which the first-store merge there asks too
        ["src/tirx/script/printer/utils.h"],
        {PRINTER: ",".join(SCALAR_INDEX[PRINTER])},
    ),
    "0012": (
        "src/target/source/codegen_c.cc",
        [],
        {
            "tests/python/codegen/test_target_codegen_c_host.py": None,
            OPENCL: ",".join(REINTERPRET[OPENCL]),
        },
    ),
    "0013": (
        "src/s_tir/transform/inject_virtual_thread.cc",
        [],
        {"tests/python/s_tir/transform/test_s_tir_transform_inject_virtual_thread.py": None},
    ),
    "0014": (
        "src/backend/webgpu/codegen/codegen_webgpu.cc",
        # the same refusal in Metal's PrintType
        ["src/backend/metal/codegen/codegen_metal.cc"],
        {
            WEBGPU: ",".join(WEBGPU_TESTS["0014"]),
            "tests/python/codegen/test_target_codegen_metal.py": None,
        },
    ),
    "0015": (
        "src/backend/webgpu/codegen/codegen_webgpu.cc",
        ["src/backend/webgpu/codegen/codegen_webgpu.h"],
        {WEBGPU: ",".join(WEBGPU_TESTS["0015"])},
    ),
}
AUTHOR = "From: Seed 000e2e69 maintainers"
HEADER = re.compile(r"^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$")
# `git format-patch -k`: no [PATCH] prefix, so that `git am -k` keeps TVM's tags
SUBJECT = re.compile(r"^Subject: (?!\[PATCH)(\[[A-Za-z]+\])+ \S")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def file_diffs(text):
    """{path: (is_new, added lines)} of every file the patch touches."""
    files = {}
    for block in re.split(r"^diff --git ", text, flags=re.MULTILINE)[1:]:
        path = block.split()[1][2:]
        head, _, body = block.partition("\n@@")
        added = [
            ln[1:] for ln in body.split("\n") if ln.startswith("+") and not ln.startswith("+++")
        ]
        files[path] = ("\nnew file mode" in head, added)
    return files


def _subsequence(needle, haystack):
    it = iter(haystack)
    return all(any(line == h for h in it) for line in needle)


def formatted(text):
    """``text`` as ruff formats it with TVM's configuration (this repository's copy)."""
    ruff = find_ruff()
    if not ruff:
        raise ExportError("ruff not found (run scripts/setup.sh)")
    proc = subprocess.run(
        [ruff, "format", "--config", str(ROOT / "pyproject.toml"), "-"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise ExportError(f"ruff format failed: {proc.stderr.strip()}")
    return proc.stdout


# helpers of our files that TVM's file at the base commit has word for word: the export does
# not add them again (export_to_tvm.merge), so a patch's added lines do not show them
TVM_HELPERS = {
    "tests/python/tirx-transform/test_tir_transform_bf16_legalize.py": {
        "u16tof32",
        "bf16tof32",
        "f32tou16",
        "f32tobf16",
    },
}


@functools.lru_cache(maxsize=64)
def _exported(text, spec):
    """One of our files as the export writes it into the patches' tree (TVM main of 2026-08);
    once per process for each file and selection (every check of a patch exports the same
    files)."""
    return formatted(adapt_launch(drop_bug_xfails(select_names(text, spec) if spec else text)))


def test_problems(path, spec, is_new, added, number="9999"):
    """How the patch's version of our test file ``path`` differs from the repository's."""
    try:
        text = (ROOT / path).read_text()
        want = _exported(text, spec)
        # a helper that an earlier patch already added to the same file is not added again
        earlier = set(TVM_HELPERS.get(path, ()))
        for n, (_, _, ours) in PATCH_TABLE.items():
            if n < number and path in ours:
                earlier |= set().union(
                    *map(_defined_names, ast.parse(_exported(text, ours[path])).body)
                )
        want = _cut_defs(want, [d for d in ast.parse(want).body if _defined_names(d) & earlier])
        body = split_ours(want)[1]
    except ExportError as err:
        return [f"{path}: {err}"]
    if is_new and "\n".join(added) + "\n" != want:
        return [f"{path} differs from the repository's file minus its bug xfails"]
    if not _subsequence([ln for ln in body.splitlines() if ln.strip()], added):
        return [f"{path}: the added tests differ from the repository's file minus its bug xfails"]
    return []


def entry_of(patch):
    """The PATCH_TABLE entry of a patch file, by the number its name starts with."""
    return PATCH_TABLE.get(Path(patch).name[:4])


def check(patch):
    raw = patch.read_bytes()
    text = raw.decode("utf-8", errors="replace")
    lines = text.splitlines()
    problems = []
    if b"\r" in raw or CONTROL.search(text.replace("\n", "")):
        problems.append("contains control characters (CR, backspace, ...)")
    if not lines or not HEADER.match(lines[0]):
        problems.append("does not start with a git format-patch 'From <sha> ...' line")
    if not any(ln.startswith(AUTHOR) for ln in lines[:10]):
        problems.append(f"author is not this project's ({AUTHOR[6:]})")
    if not any(ln.startswith("Date: ") for ln in lines[:10]):
        problems.append("no 'Date' header")
    if not any(SUBJECT.match(ln) for ln in lines[:10]):
        problems.append("no 'Subject: [TAG]... text' line (git format-patch -k, TVM's tags)")
    if "\n---\n" not in text:
        problems.append("no '---' separator between message and diff")
    touched = re.findall(r"^diff --git a/(\S+) b/\S+$", text, flags=re.MULTILINE)
    if not touched:
        return [*problems, "touches no file"]
    entry = entry_of(patch)
    if entry is None:
        return [*problems, f"not a patch of the table (numbers {', '.join(PATCH_TABLE)})"]
    main, companions, ours = entry
    if main not in touched:
        problems.append(f"does not touch {main}, the source it fixes")
    for path in touched:
        if path != main and path not in companions and path not in ours:
            problems.append(f"touches {path}, which does not belong to a fix of {main}")
    diffs = file_diffs(text)
    for path, spec in ours.items():
        if path not in diffs:
            problems.append(f"does not add the tests of {path}")
        else:
            problems += test_problems(path, spec, *diffs[path], number=Path(patch).name[:4])
    return problems


def tests_in_no_patch(table=None):
    """``path::test`` of each test of an upstream file that the table splits between patches by
    name (every patch names what it takes) and that no patch takes: a test added there later
    would otherwise reach no pull request."""
    table = PATCH_TABLE if table is None else table
    specs = {}
    for _, _, ours in table.values():
        for path, spec in ours.items():
            specs.setdefault(path, []).append(spec)
    missing = []
    for path, found in sorted(specs.items()):
        if any(spec is None or spec.startswith("-") for spec in found):
            continue
        taken = set().union(*(spec.split(",") for spec in found))
        tree = ast.parse((ROOT / path).read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                if node.name not in taken:
                    missing.append(f"{path}::{node.name}")
    return missing


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) == 2 and argv[0] in ("--tests-of", "--companions-of"):
        path = Path(argv[1])
        entry = entry_of(path) if path.is_file() else None
        if entry is None:
            print(f"check_patches: error: {path} is not a patch of the table", file=sys.stderr)
            return 2
        _, companions, ours = entry
        if argv[0] == "--tests-of":  # as export_to_tvm.py --only takes them
            print("\n".join(f"{f}::{s}" if s else f for f, s in ours.items()))
        else:
            print("\n".join(companions))
        return 0
    if argv:
        print(f"check_patches: error: unknown arguments {argv}", file=sys.stderr)
        return 2
    patches = sorted(PATCHES.glob("*.patch"))
    if not patches:
        print("check_patches: error: no patches/*.patch", file=sys.stderr)
        return 2
    failed = False
    for patch in patches:
        problems = check(patch)
        failed |= bool(problems)
        status = "ok" if not problems else "FAILED"
        print(f"{patch.relative_to(ROOT)}: {status}")
        for problem in problems:
            print(f"  - {problem}")
    for test in tests_in_no_patch():
        print(f"{test}: in no patch (add it to its patch's names in scripts/check_patches.py)")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
