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
    python scripts/check_patches.py --tests-of P    # the test files that belong with patch P
    python scripts/check_patches.py --companions-of P   # other files patch P may touch
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export_to_tvm import ExportError, drop_bug_xfails, split_ours

ROOT = Path(__file__).resolve().parent.parent
PATCHES = ROOT / "patches"

# source file a patch fixes -> this repository's upstream test files that go with it
FIXES = {
    "src/relax/transform/allocate_workspace.cc": [
        "tests/python/relax/test_transform_allocate_workspace.py",
    ],
    "src/tirx/transform/lower_tvm_builtin.cc": [
        "tests/python/tirx-transform/test_tir_transform_lower_tvm_builtin.py",
        "tests/python/tirx-transform/test_tir_transform_split_host_device.py",
        "tests/python/codegen/test_target_codegen_cuda.py",
    ],
    "src/tirx/analysis/verify_memory.cc": [
        "tests/python/tirx-analysis/test_tir_analysis_verify_memory.py",
    ],
}
# other files a fix may touch besides its main one
COMPANIONS = {
    "src/tirx/transform/lower_tvm_builtin.cc": ["src/tirx/transform/split_host_device.cc"],
    # an existing TVM test whose kernel relied on the verifier's silence (no thread index)
    "src/tirx/analysis/verify_memory.cc": ["tests/python/tirx/iket/test_iket_profiler.py"],
}
AUTHOR = "From: Seed 000e2e69 maintainers"
HEADER = re.compile(r"^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$")
# `git format-patch -k`: no [PATCH] prefix, so that `git am -k` keeps TVM's tags
SUBJECT = re.compile(r"^Subject: (\[[A-Za-z]+\])+ \S")
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


def test_problems(path, is_new, added):
    """How the patch's version of our test file ``path`` differs from the repository's."""
    try:
        want = drop_bug_xfails((ROOT / path).read_text())
        body = split_ours(want)[1]
    except ExportError as err:
        return [f"{path}: {err}"]
    if is_new and "\n".join(added) + "\n" != want:
        return [f"{path} differs from the repository's file minus its bug xfails"]
    if not _subsequence([ln for ln in body.splitlines() if ln.strip()], added):
        return [f"{path}: the added tests differ from the repository's file minus its bug xfails"]
    return []


def main_source(text):
    touched = re.findall(r"^diff --git a/(\S+) b/\S+$", text, flags=re.MULTILINE)
    sources = [t for t in touched if t in FIXES]
    return touched, (sources[0] if len(sources) == 1 else None)


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
    touched, main = main_source(text)
    if not touched:
        return [*problems, "touches no file"]
    if main is None:
        return [*problems, f"must fix exactly one of {sorted(FIXES)}, touches {touched}"]
    ours = FIXES[main]
    for path in touched:
        if path != main and path not in COMPANIONS.get(main, []) and path not in ours:
            problems.append(f"touches {path}, which does not belong to a fix of {main}")
    diffs = file_diffs(text)
    for path in ours:
        if path not in diffs:
            problems.append(f"does not add the tests of {path}")
        else:
            problems += test_problems(path, *diffs[path])
    return problems


def main(argv):
    if len(argv) == 2 and argv[0] in ("--tests-of", "--companions-of"):
        path = Path(argv[1])
        if not path.is_file():
            print(f"check_patches: error: no such patch {path}", file=sys.stderr)
            return 2
        _, source = main_source(path.read_text())
        if source is None:
            print(f"check_patches: error: {path} fixes none of {sorted(FIXES)}", file=sys.stderr)
            return 2
        print("\n".join(FIXES[source] if argv[0] == "--tests-of" else COMPANIONS.get(source, [])))
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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
