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
"""Check that every patch in patches/ is a well-formed ``git format-patch`` file that
touches only the files it should, and that the tests it adds are this repository's
upstream test files with the bug xfail marks removed (as export_to_tvm.py makes them).

    python scripts/check_patches.py     # exit 0 all good, 1 findings, 2 cannot run
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export_to_tvm import ExportError, drop_bug_xfails

ROOT = Path(__file__).resolve().parent.parent
PATCHES = ROOT / "patches"

# source file a patch fixes -> the upstream test files (globs) that belong with it
FIXES = {
    "src/relax/transform/allocate_workspace.cc": [
        "tests/python/relax/test_transform_allocate_workspace_*.py",
        "tests/python/relax/test_vm_allocate_workspace*.py",
    ],
    "src/tirx/transform/lower_tvm_builtin.cc": [
        "tests/python/tirx-transform/test_tir_transform_lower_tvm_builtin_*.py",
        "tests/python/tirx-transform/test_tir_transform_host_scalar*.py",
        "tests/python/tvmscript/test_tvmscript_parser_host_scalar*.py",
        "tests/python/codegen/test_target_codegen_cuda_host_scalar*.py",
    ],
    "src/tirx/analysis/verify_memory.cc": [
        "tests/python/tirx-analysis/test_tir_analysis_verify_memory*.py",
        "tests/python/codegen/test_target_codegen_cuda_verify_memory*.py",
    ],
}
# other sources a fix may touch besides its main one
COMPANIONS = {
    "src/tirx/transform/lower_tvm_builtin.cc": ["src/tirx/transform/split_host_device.cc"],
    # an existing TVM test whose kernel relied on the verifier's silence (no thread index)
    "src/tirx/analysis/verify_memory.cc": ["tests/python/tirx/iket/test_iket_profiler.py"],
}
HEADER = re.compile(r"^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$")
SUBJECT = re.compile(r"^Subject: \[PATCH[^\]]*\] (\[[A-Za-z]+\])+ \S")


def added_files(text):
    """{path: content} of the files a patch creates."""
    files = {}
    for block in re.split(r"^diff --git ", text, flags=re.MULTILINE)[1:]:
        if "\nnew file mode" not in block.split("@@", 1)[0]:
            continue
        path = block.split()[1][2:]
        body = block.split("@@", 1)[1].split("\n", 1)[1]
        lines = [ln[1:] for ln in body.split("\n") if ln.startswith("+")]
        files[path] = "\n".join(lines) + "\n"
    return files


def check(patch):
    text = patch.read_text()
    lines = text.splitlines()
    problems = []
    if not lines or not HEADER.match(lines[0]):
        problems.append("does not start with a git format-patch 'From <sha> ...' line")
    for field in ("From: ", "Date: "):
        if not any(ln.startswith(field) for ln in lines[:10]):
            problems.append(f"no '{field.strip()}' header")
    if not any(SUBJECT.match(ln) for ln in lines[:10]):
        problems.append("no 'Subject: [PATCH] [TAG]... text' line in TVM's style")
    if "\n---\n" not in text:
        problems.append("no '---' separator between message and diff")
    touched = re.findall(r"^diff --git a/(\S+) b/\S+$", text, flags=re.MULTILINE)
    if not touched:
        return [*problems, "touches no file"]
    sources = [t for t in touched if t in FIXES]
    if len(sources) != 1:
        return [*problems, f"must fix exactly one of {sorted(FIXES)}, touches {touched}"]
    main = sources[0]
    allowed_globs = FIXES[main]
    for path in touched:
        if path == main or path in COMPANIONS.get(main, []):
            continue
        if not any(Path(path).match(g) for g in allowed_globs):
            problems.append(f"touches {path}, which does not belong to a fix of {main}")
    expected = {
        str(p.relative_to(ROOT)) for g in allowed_globs for p in ROOT.glob(g) if p.is_file()
    }
    added = added_files(text)
    for path in sorted(expected - set(added)):
        problems.append(f"does not add the upstream test file {path}")
    for path in sorted(expected & set(added)):
        try:
            want = drop_bug_xfails((ROOT / path).read_text())
        except ExportError as err:
            problems.append(f"{path}: {err}")
            continue
        if added[path] != want:
            problems.append(f"{path} differs from the repository's file minus its bug xfails")
    return problems


def main():
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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
