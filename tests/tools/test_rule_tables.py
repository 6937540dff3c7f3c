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
"""The rule x dimension tables of the bug folders (bugs/<key>/rules.md, one per patch) name
tests that exist.

Each row of a table is a rule a pull request states, a dimension along which a fix could get it
wrong, and what covers it: test ids (backticked ``path::name[id]``) or ``n/a: <why>``. This
checks every named id against a collection of tests/python, tests/proof and bugs/, and that
every patch has its table.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the tables, one per patch: bugs/<key>/rules.md (a patch of two reports keeps one, in the
# folder of one of them)
RULES = sorted((ROOT / "bugs").glob("*/rules.md"))
TEST_ID = re.compile(r"`((?:tests|bugs)/[^`]+?::[^`]+)`")


def start_children(pool, tests, tmp_path_factory):
    """The collection the tests read: every test id of tests/python, tests/proof and bugs/."""
    command = [
        sys.executable,
        str(ROOT / "scripts" / "run_pytest.py"),
        "-p",
        "no:cacheprovider",
        "--collect-only",
        "-q",
        "tests/python",
        "tests/proof",
        "bugs",
    ]
    run = lambda: subprocess.run(command, cwd=ROOT, capture_output=True, text=True)  # noqa: E731
    return {"collected": pool.submit(run)}


def _rows(table):
    """(rule, dimension, covered-by) of each data row of a Markdown table, the rule carried
    down into the rows that leave it empty."""
    rows, rule = [], ""
    for line in table.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 3 or (cells[0] and set(cells[0]) <= set("-")):
            continue
        if cells == ["rule", "dimension", "covered by"]:
            continue
        rule = cells[0] or rule
        rows.append((rule, cells[1], cells[2]))
    return rows


def test_every_patch_has_a_rule_table():
    """Each patch of patches/ has its table, a bugs/<key>/rules.md whose title names it."""
    patches = {p.name[:4] for p in (ROOT / "patches").glob("0*.patch")}
    tables = {re.match(r"# Patch (\d{4})", t.read_text()).group(1) for t in RULES}
    assert patches <= tables


@pytest.mark.parametrize("table", RULES, ids=lambda t: t.parent.name)
def test_rule_table_names_existing_tests(table, children):
    """Every row covers its dimension with tests that exist, or says why it cannot matter."""
    collected = children["collected"].result()
    assert collected.returncode == 0, collected.stdout[-2000:] + collected.stderr[-2000:]
    ids = {line.strip() for line in collected.stdout.splitlines() if "::" in line}
    rows = _rows(table)
    assert rows, f"{table.name} has no rows"
    for rule, dimension, covered in rows:
        named = TEST_ID.findall(covered)
        assert named or covered.startswith("n/a:"), f"{rule} / {dimension}: nothing covers it"
        missing = [test for test in named if test not in ids]
        assert not missing, f"{rule} / {dimension}: no such test {missing}"
