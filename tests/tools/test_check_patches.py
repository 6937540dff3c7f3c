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
"""Tests of scripts/check_patches.py on this repository's patches and on broken copies."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import check_patches  # noqa: E402

PATCHES = sorted((ROOT / "patches").glob("*.patch"))


@pytest.fixture(params=PATCHES, ids=[p.name[:4] for p in PATCHES])
def patch_text(request, tmp_path):
    # candidates are checked under the patch's own name: the table knows patches by number
    tmp_path.joinpath("name").write_text(request.param.name)
    return request.param.read_text()


def problems_of(tmp_path, text):
    path = tmp_path / tmp_path.joinpath("name").read_text()
    path.write_bytes(text.encode())
    return check_patches.check(path)


def test_there_are_patches():
    assert PATCHES


def test_repository_patches_are_well_formed(tmp_path, patch_text):
    assert problems_of(tmp_path, patch_text) == []


def test_subject_without_tvm_tag_is_rejected(tmp_path, patch_text):
    broken = patch_text.replace("Subject: [FIX]", "Subject: FIX", 1)
    assert broken != patch_text
    assert any("Subject" in p for p in problems_of(tmp_path, broken))


def test_subject_that_git_am_would_strip_is_rejected(tmp_path, patch_text):
    broken = patch_text.replace("Subject: [FIX]", "Subject: [PATCH] [FIX]", 1)
    assert any("Subject" in p for p in problems_of(tmp_path, broken))


def test_stale_test_is_rejected(tmp_path, patch_text):
    # one added test docstring edited: the tests no longer match the repository's
    at = patch_text.index("\ndiff --git a/tests/")
    tests = re.sub(r'(\n\+    """)(\w)', r"\1Stale: \2", patch_text[at:], count=1)
    broken = patch_text[:at] + tests
    assert broken != patch_text
    assert any("differ" in p for p in problems_of(tmp_path, broken))


@pytest.mark.parametrize("char", ["\x08", "\r", "\x1b"])
def test_control_character_is_rejected(tmp_path, patch_text, char):
    broken = patch_text.replace("\n+", f"\n+{char}", 1)
    assert any("control characters" in p for p in problems_of(tmp_path, broken))


def test_foreign_author_is_rejected(tmp_path, patch_text):
    broken = re.sub(r"^From: .*$", "From: Someone <x@example.com>", patch_text, 1, re.M)
    assert any("author" in p for p in problems_of(tmp_path, broken))


@pytest.mark.parametrize("option", ["--tests-of", "--companions-of"])
def test_bad_patch_argument_is_a_one_line_error(tmp_path, capsys, option):
    assert check_patches.main([option, str(tmp_path / "missing.patch")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_unrelated_file_is_rejected(tmp_path, patch_text):
    extra = (
        "diff --git a/src/relax/ir/expr.cc b/src/relax/ir/expr.cc\n"
        "index 1111111..2222222 100644\n--- a/src/relax/ir/expr.cc\n"
        "+++ b/src/relax/ir/expr.cc\n@@ -1 +1 @@\n-a\n+b\n"
    )
    head, sep, tail = patch_text.partition("diff --git ")
    broken = head + extra + sep + tail
    assert any("src/relax/ir/expr.cc" in p for p in problems_of(tmp_path, broken))


def test_patch_without_a_table_entry_is_rejected(tmp_path, patch_text):
    path = tmp_path / "0099-unknown.patch"
    path.write_text(patch_text)
    assert any("not a patch of the table" in p for p in check_patches.check(path))


def test_plain_diff_is_not_a_format_patch(tmp_path, patch_text):
    diff_only = patch_text[patch_text.index("diff --git ") :]
    found = problems_of(tmp_path, diff_only)
    assert any("git format-patch" in p for p in found)


def test_every_test_of_a_split_file_is_in_a_patch():
    assert check_patches.tests_in_no_patch() == []


def test_a_test_no_patch_names_is_reported():
    table = {
        n: (cpp, comp, dict(ours)) for n, (cpp, comp, ours) in check_patches.PATCH_TABLE.items()
    }
    ours = table["0014"][2]
    webgpu = check_patches.WEBGPU
    ours[webgpu] = ",".join(
        n for n in ours[webgpu].split(",") if n != "test_webgpu_says_why_it_lacks_a_type"
    )
    assert check_patches.tests_in_no_patch(table) == [
        f"{webgpu}::test_webgpu_says_why_it_lacks_a_type"
    ]
