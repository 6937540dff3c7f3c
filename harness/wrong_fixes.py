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
"""Deliberately wrong fixes of the bug reports (this repository only).

Each is a small variant of a bug's reference fix (bugs/<report>/reference_fix.py) that makes
one plausible mistake. The tests must kill every one of them: with the wrong fix installed and the
report's bug tests expected to pass (``pytest --wrong-fix=REPORT:NAME``), at least two
tests fail, one of them in an upstream file (tests/python). scripts/wrong_fixes.py runs
them all and prints which tests kill which wrong fix.

One module per report, bugs/<report>/wrong_fixes.py (the report keys of bug_reports.py), each with

    WRONG_FIXES = {name: "one line: the mistake this variant models", ...}
    def install(name): install that wrong fix in this process; return an uninstaller

``catalogue()`` and ``parse()`` read each module's ``WRONG_FIXES`` from its source when it is a
plain literal, without importing the module: importing it imports TVM (about a second), and
naming or checking a wrong fix (``scripts/wrong_fixes.py --list``, a ``--wrong-fix`` typo)
needs none.
"""

import ast
import importlib
from pathlib import Path

from bug_reports import BUG_REPORTS

# the bug folders: bugs/<report>/wrong_fixes.py
BUGS = Path(__file__).resolve().parent.parent / "bugs"


def patched_install(fix, patches):
    """Replace attributes of the reference fix module ``fix`` ({name: wrong value}), install
    it; return a function that removes it and restores the attributes."""
    saved = {attr: getattr(fix, attr) for attr in patches}
    for attr, value in patches.items():
        setattr(fix, attr, value)
    undo_fix = fix.install()

    def uninstall():
        undo_fix()
        for attr, value in saved.items():
            setattr(fix, attr, value)

    return uninstall


def _module(report):
    if report not in BUG_REPORTS:
        raise ValueError(f"unknown report {report!r}; known: {', '.join(BUG_REPORTS)}")
    try:
        return importlib.import_module(f"bugs.{report}.wrong_fixes")
    except ModuleNotFoundError as err:
        if err.name != f"bugs.{report}.wrong_fixes":
            raise
        return None


def _declared(report):
    """The ``WRONG_FIXES`` of ``report``'s module ({} without a module): read from its source
    when the module binds it once, to a literal, at top level and never changes it (no
    method call, item assignment or deletion); else from the imported module."""
    if report not in BUG_REPORTS:
        raise ValueError(f"unknown report {report!r}; known: {', '.join(BUG_REPORTS)}")
    path = BUGS / report / "wrong_fixes.py"
    if not path.exists():
        return {}
    tree = ast.parse(path.read_text(), str(path))
    assigned = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [getattr(t, "id", None) for t in node.targets] == ["WRONG_FIXES"]
    ]
    changes = 0  # bindings, deletions, method calls, item assignments of the name
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "WRONG_FIXES":
            changes += not isinstance(node.ctx, ast.Load)
        elif isinstance(node, ast.Attribute | ast.Subscript):
            value = node.value
            if isinstance(value, ast.Name) and value.id == "WRONG_FIXES":
                changes += isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load)
    if len(assigned) == changes == 1:
        try:
            return ast.literal_eval(assigned[0])
        except ValueError:
            pass
    return getattr(_module(report), "WRONG_FIXES", {})


def needs_opencl(report):
    """Whether ``report``'s wrong fixes are OpenCL runtimes (its module sets ``NEEDS_OPENCL =
    True`` at top level): only a launch tells them apart. Read from the source, as
    ``_declared`` reads ``WRONG_FIXES``, without importing TVM."""
    path = BUGS / report / "wrong_fixes.py"
    if not path.exists():
        return False
    return any(
        isinstance(node, ast.Assign)
        and [getattr(t, "id", None) for t in node.targets] == ["NEEDS_OPENCL"]
        and isinstance(node.value, ast.Constant)
        and node.value.value is True
        for node in ast.parse(path.read_text(), str(path)).body
    )


def catalogue():
    """{(report, name): description} of every wrong fix."""
    found = {}
    for report in BUG_REPORTS:
        for name, description in _declared(report).items():
            found[(report, name)] = description
    return found


def parse(spec):
    """'REPORT:NAME' -> (report, name), checked against the catalogue."""
    report, sep, name = spec.partition(":")
    if not sep or not name:
        raise ValueError(f"expected REPORT:NAME, got {spec!r}")
    known = _declared(report)
    if name not in known:
        raise ValueError(f"no wrong fix {name!r} for {report}; known: {', '.join(known) or 'none'}")
    return report, name


def install(spec):
    """Install the wrong fix 'REPORT:NAME'; return an uninstaller."""
    report, name = parse(spec)
    return _module(report).install(name)
