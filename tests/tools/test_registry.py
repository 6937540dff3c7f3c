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
"""The registry, bug_reports.py, against the tree: every report has its folder with its
reference fix and wrong fixes, and UPSTREAM_FILES names exactly the upstream test files whose
xfail reasons name the report."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from bug_reports import BUG_REPORTS, NO_REFERENCE_FIX, UPSTREAM_FILES  # noqa: E402

UPSTREAM_TREES = ("tests/python", "tvm-tirx/tests/python")


@pytest.mark.parametrize("key", sorted(BUG_REPORTS))
def test_every_report_has_its_folder(key):
    """A report's folder holds its README, probe and, unless it has none, its fixes (the wrong
    fixes as a table, wrong_fixes.toml, or a module, wrong_fixes.py, or both)."""
    folder = ROOT / "bugs" / key
    expected = ["README.md", "probe.py"]
    if key not in NO_REFERENCE_FIX:
        expected.append("reference_fix.py")
        tables = ("wrong_fixes.toml", "wrong_fixes.py")
        expected += [name for name in tables if (folder / name).is_file()] or [tables[0]]
    assert [name for name in expected if not (folder / name).is_file()] == []


@pytest.mark.parametrize("key", sorted(BUG_REPORTS))
def test_upstream_files_are_the_files_naming_the_report(key):
    """UPSTREAM_FILES[key] is the set of upstream test files that carry the report's phrase (none
    for a report filed as a text only)."""
    phrase = BUG_REPORTS[key].lower()
    naming = {
        str(path.relative_to(ROOT))
        for tree in UPSTREAM_TREES
        for path in (ROOT / tree).rglob("test_*.py")
        if phrase in path.read_text().lower()
    }
    assert set(UPSTREAM_FILES.get(key, ())) == naming
