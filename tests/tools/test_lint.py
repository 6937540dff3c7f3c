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
"""Tests of scripts/lint.py's own rules (this repository only)."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("lint", ROOT / "scripts" / "lint.py")
lint = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lint)

LICENSE = "# Licensed to the Apache Software Foundation (ASF) under one\n"


@pytest.mark.parametrize(
    "text, problems",
    [
        (LICENSE + '"""What it is for."""\n\nimport os\n', 0),
        (LICENSE + "# what it is for, as a comment\nimport os\n", 1),
        (LICENSE + 'import os\n\n"""a string after the code"""\n', 1),
    ],
    ids=["docstring", "comment-only", "string-after-code"],
)
def test_an_own_module_must_open_with_a_docstring(text, problems):
    """A module of this repository's own opens with a docstring; a comment does not count."""
    assert len(lint.own_problems(text)) == problems
