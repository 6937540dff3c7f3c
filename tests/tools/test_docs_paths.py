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
"""The documents name no directory of the machine they were written on: paths are relative
to the repository, or the variables the scripts print (TVM_PYTHON, ...)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".venv", ".venv-tirx", ".git", ".pytest_cache", ".ruff_cache", "build", "node_modules"}
# an absolute path under a machine's own folders (not /usr/..., not placeholders like
# /path/to/python)
LOCAL_PATH = re.compile(r"(?<![\w.~/-])/(?:work|tmp|home|root|Users|mnt|scratch)/[\w.+-]")


def documents():
    for path in sorted(ROOT.rglob("*.md")):
        if not SKIP_DIRS & set(path.relative_to(ROOT).parts):
            yield path


def test_documents_name_no_local_directories():
    """No Markdown file of the repository contains an absolute local path."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in documents()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if LOCAL_PATH.search(line)
    ]
    assert found == []


def test_the_pattern_finds_local_paths_only():
    """The check flags machine-local directories, and neither system paths nor placeholders."""
    flagged = ["source /tmp/tvm-src-build/env.sh", "cd /work/main && pytest", "(/home/me/tvm)"]
    allowed = [
        "TVM_PYTHON=/path/to/python scripts/report.sh",
        "/usr/lib/llvm-19/bin/llvm-config",
        "tests/python/tirx-transform/",
        "https://github.com/apache/tvm/tree/main/tmp/x",
    ]
    assert all(LOCAL_PATH.search(text) for text in flagged)
    assert not any(LOCAL_PATH.search(text) for text in allowed)


# the documents whose links are kept checked: the README, bugs/ (each bug's README.md) and docs/
LINKED = ["README.md", "bugs/**/README.md", "docs/*.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")
# a list line naming a test file's tests: "[`path`](path): `test_a`, `test_b`"
TEST_NAMES = re.compile(r"\]\(([^)\s]+\.py)\): ((?:`test_\w+`(?:, )?)+)")


def linked_documents():
    return sorted({p for pattern in LINKED for p in ROOT.glob(pattern)})


def test_linked_documents_are_found():
    """The README, every bug's README and the docs are among the checked documents"""
    names = {str(p.relative_to(ROOT)) for p in linked_documents()}
    assert {"README.md", "bugs/README.md", "bugs/host_scalar/README.md"} <= names


def test_every_link_of_the_documents_exists():
    """Every relative link of the README, bugs/ and docs/ names a file or folder that exists,
    and every test a bug's README names next to its file is defined in that file"""
    missing = []
    for doc in linked_documents():
        text = doc.read_text()
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            path = (doc.parent / target.split("#")[0]).resolve()
            if not path.exists():
                missing.append(f"{doc.relative_to(ROOT)}: {target}")
        for target, names in TEST_NAMES.findall(text):
            path = (doc.parent / target).resolve()
            source = path.read_text() if path.exists() else ""
            for name in re.findall(r"`(test_\w+)`", names):
                if not re.search(rf"^def {name}\(", source, re.M):
                    missing.append(f"{doc.relative_to(ROOT)}: {target}::{name}")
    assert missing == [], "update these documents:\n" + "\n".join(missing)
