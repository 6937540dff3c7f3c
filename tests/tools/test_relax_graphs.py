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
"""The generator's Relax call graphs (generator/relax_cases.py) and the AllocateWorkspace rules
of clause (g), on one graph: a sized Composite function reached from main through a Codegen
function and from a second caller, called twice."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator import relax_cases as RC  # noqa: E402
from generator.oracle import Verdict  # noqa: E402

GRAPH = RC.RelaxGraph(
    calls=((0, "plain"), (1, "dataflow")),
    functions=(
        RC.Fn("outer", "codegen", None, False, ((2, "var"),)),
        RC.Fn("g", "plain", None, False, ((2, "plain"), (2, "var2"))),
        RC.Fn("inner", "composite", 1024, True),
    ),
)


def _classes(fix=None):
    from harness import reference_fixes, wrong_fixes

    undo = reference_fixes.install(["allocate_workspace"]) if fix == "reference" else None
    if fix not in (None, "reference"):
        undo = wrong_fixes.install(f"allocate_workspace:{fix}")
    try:
        return sorted(key for _c, key, _m in RC.judge(GRAPH, Verdict()).violations)
    finally:
        if undo:
            undo()


def test_reference_fix_keeps_every_rule():
    """Under the reference fix the graph's output keeps every rule of clause (g)."""
    assert _classes("reference") == []


def test_released_pass_breaks_the_graph():
    """The released pass leaves the graph broken: some clause (d) or (g) class."""
    assert _classes(None) != []


@pytest.mark.parametrize(
    "wrong, rule",
    [
        ("alloc-per-call", "g:relax.AllocateWorkspace:allocated-more-than-once"),
        ("private-gets-global-symbol", "g:relax.AllocateWorkspace:global-symbol-count-changed"),
        ("strip-only", "g:relax.AllocateWorkspace:sized-function-without-workspace"),
    ],
)
def test_wrong_fix_breaks_its_rule(wrong, rule):
    """A wrong fix of AllocateWorkspace breaks the rule it gets wrong on the graph."""
    assert rule in _classes(wrong)
