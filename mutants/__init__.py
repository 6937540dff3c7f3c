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
"""Tool-made mutants of the reference fixes, run as wrong fixes (this repository only).

scripts/mutants.py makes the mutants of bugs/<key>/reference_fix.py with cosmic-ray
(mutants/generate.py, in the tool's own interpreter) and runs each through
scripts/wrong_fixes.py's machinery: ``pytest --wrong-fix=<key>:mutant`` with this package's
plugin (``-p mutants.plugin --mutant-source=FILE``). FILE is a JSON object {"report", "id",
"source"}: the mutated module's text. Nothing on disk changes: the mutant is executed as the
module ``bugs.<key>.reference_fix`` in the pytest process (a fork of the runner's server) and
in the child processes its tests start (mutants/_site), and its ``install()`` runs as the
reference fix's would.

The same kill rule as a wrong fix's (harness/stop_when_killed.py). A mutant that no test can
tell from the reference fix is *equivalent*: mutants/equivalent.json, a reviewed table
{mutant id: {"mutation": "<line before> -> <line after>", "reason": why}}, which the command
reads (an entry whose mutation no longer matches the mutant of that id is stale and runs).

A mutant id is ``<key>.py:<line>:<operator>:<k>`` (k: the operator's k-th mutation on that
line), stable across runs and across edits elsewhere in the file.
"""

import json
import os
import signal
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# the wrong-fix name a mutant runs under: --wrong-fix=<report>:mutant
NAME = "mutant"
# the file of the mutant to install (set by the plugin; child processes inherit it)
SOURCE_ENV = "TVM_MUTANT_SOURCE"
EQUIVALENT_FILE = HERE / "equivalent.json"
LINES = ("apache/tvm", "apache/tvm-tirx")
# the exit code of a session that ran past --mutant-timeout (mutants/plugin.py)
TIMEOUT_EXIT = 124
# the exit code of one the kernel ended at its CPU limit (stuck where the alarm cannot act)
CPU_LIMIT_EXIT = -signal.SIGXCPU


def load(path=None):
    """The mutant {"report", "id", "source"} named by ``path`` or SOURCE_ENV."""
    path = path or os.environ.get(SOURCE_ENV)
    if not path:
        raise ValueError(f"no mutant: {SOURCE_ENV} is not set")
    mutant = json.loads(Path(path).read_text())
    if set(mutant) != {"report", "id", "source"}:
        raise ValueError(f"{path}: a mutant is {{report, id, source}}, got {sorted(mutant)}")
    return mutant


def install(mutant, module="bugs.{}.reference_fix"):
    """Make the mutant's source the module ``module`` (``{}``: its report) of this process and
    run its ``install()``; return an uninstaller (which restores the module that was there)."""
    from harness.reference_fixes import install_source

    return install_source(mutant["report"], mutant["source"], module)


def accept_in_wrong_fixes():
    """Make wrong_fixes.parse/install take ``<report>:mutant`` for the mutant of SOURCE_ENV
    (the root conftest's --wrong-fix and harness/child_site call them); idempotent."""
    from harness import wrong_fixes

    if getattr(wrong_fixes.install, "_takes_mutants", False):
        return
    parse, install_wrong = wrong_fixes.parse, wrong_fixes.install

    def _mutant_of(spec):
        report, _, name = spec.partition(":")
        if name != NAME:
            return None
        mutant = load()
        if mutant["report"] != report:
            raise ValueError(f"the mutant {mutant['id']} is of {mutant['report']}, not {report}")
        return mutant

    def parse_mutant(spec):
        mutant = _mutant_of(spec)
        return (mutant["report"], NAME) if mutant else parse(spec)

    def install_mutant(spec):
        mutant = _mutant_of(spec)
        return install(mutant) if mutant else install_wrong(spec)

    install_mutant._takes_mutants = True
    wrong_fixes.parse, wrong_fixes.install = parse_mutant, install_mutant


def reviewed(path=EQUIVALENT_FILE):
    """The reviewed table {mutant id: {"mutation", "reason"[, "line"]}}; ValueError when
    malformed. An entry with a ``line`` ("apache/tvm" or "apache/tvm-tirx") is equivalent on
    that TVM line only (a mutant of code only the other line runs)."""
    if not Path(path).exists():
        return {}
    table = json.loads(Path(path).read_text())
    if not isinstance(table, dict):
        raise ValueError(f"{path}: expected an object of mutant id -> entry")
    for mid, entry in table.items():
        if not isinstance(entry, dict) or set(entry) - {"line"} != {"mutation", "reason"}:
            raise ValueError(f"{path}: {mid}: an entry is {{mutation, reason[, line]}}")
        if entry.get("line", LINES[0]) not in LINES:
            raise ValueError(f"{path}: {mid}: line is one of {', '.join(LINES)}")
        if not all(isinstance(v, str) and v.strip() for v in entry.values()):
            raise ValueError(f"{path}: {mid}: mutation and reason must be non-empty text")
    return table
