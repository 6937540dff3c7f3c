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

Per report (the keys of bug_reports.py) a module bugs/<report>/wrong_fixes.py, and one module
bugs/<report>/wrong_fixes_<round>.py per later round of blind wrong fixes (names unique across a
report's modules), each with

    WRONG_FIXES = {name: "one line: the mistake this variant models", ...}
    def install(name): install that wrong fix in this process; return an uninstaller

or, where each wrong fix only replaces attributes of the reference fix, ``PATCHES = {name:
{attr: wrong value}}`` instead of ``install``; or ``EDITS = {name: [(old text, new text),
...]}``: the wrong fix is the reference fix's own text with that one step changed (each old
text found exactly once), run as its module (a hand-made mutant: nothing is copied).

``catalogue()`` and ``parse()`` read each module's ``WRONG_FIXES`` from its source when it is a
plain literal, without importing the module: importing it imports TVM (about a second), and
naming or checking a wrong fix (``scripts/wrong_fixes.py --list``, a ``--wrong-fix`` typo)
needs none.
"""

import ast
import functools
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


def _paths(report):
    """``report``'s wrong-fix modules: wrong_fixes.py, then wrong_fixes_<round>.py in order."""
    if report not in BUG_REPORTS:
        raise ValueError(f"unknown report {report!r}; known: {', '.join(BUG_REPORTS)}")
    return sorted(
        (BUGS / report).glob("wrong_fixes*.py"), key=lambda p: (p.stem != "wrong_fixes", p.stem)
    )


def _module(report, name=None):
    """The module of ``report`` that declares the wrong fix ``name`` (without a name: its
    first module); None where there is none."""
    for path in _paths(report):
        if name is None or name in _declared_in(report, path):
            return importlib.import_module(f"bugs.{report}.{path.stem}")
    return None


def listed(report, name, table):
    """Whether the module that declares the wrong fix ``name`` lists it in its dict ``table``
    (``NOT_ON_TVM_TIRX``: no program of that line tells it apart; ``UNSEEN``: no test can)."""
    return name in getattr(_module(report, name), table, {})


def _declared(report):
    """{name: description} over ``report``'s modules ({} without one)."""
    found = {}
    for path in _paths(report):
        found.update(_declared_in(report, path))
    return found


def _declared_in(report, path):
    """The ``WRONG_FIXES`` of one module: read from its source when the module binds it once,
    to a literal, at top level and never changes it (no method call, item assignment or
    deletion); else from the imported module."""
    return dict(_declared_in_version(report, path, path.stat().st_mtime_ns))


@functools.cache
def _declared_in_version(report, path, _mtime_ns):
    """``_declared_in`` of one version of the module (parsed once per process)."""
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
    return getattr(importlib.import_module(f"bugs.{report}.{path.stem}"), "WRONG_FIXES", {})


def needs_opencl(report):
    """Whether ``report``'s wrong fixes are OpenCL runtimes (its module sets ``NEEDS_OPENCL =
    True`` at top level): only a launch tells them apart. Read from the source, as
    ``_declared`` reads ``WRONG_FIXES``, without importing TVM."""
    return any(
        isinstance(node, ast.Assign)
        and [getattr(t, "id", None) for t in node.targets] == ["NEEDS_OPENCL"]
        and isinstance(node.value, ast.Constant)
        and node.value.value is True
        for path in _paths(report)
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
    """Install the wrong fix 'REPORT:NAME'; return an uninstaller. A module whose wrong fixes
    each only replace attributes of the reference fix declares them as ``PATCHES = {name:
    {attr: value}}``, or as edits of its text, ``EDITS = {name: [(old, new), ...]}``, and
    needs no ``install``."""
    report, name = parse(spec)
    module = _module(report, name)
    if hasattr(module, "install"):
        return module.install(name)
    if name in getattr(module, "EDITS", {}):
        from harness.reference_fixes import install_source

        return install_source(report, edited_source(report, module.EDITS[name]))
    fix = importlib.import_module(f"bugs.{report}.reference_fix")
    return patched_install(fix, module.PATCHES[name])


def edited_source(report, edits):
    """The text of ``report``'s reference fix with each ``(old, new)`` of ``edits`` made:
    ``old`` must occur in it exactly once (a wrong fix names the one step it changes)."""
    source = (BUGS / report / "reference_fix.py").read_text()
    for old, new in edits:
        count = source.count(old)
        if count != 1:
            raise ValueError(
                f"{report}: a wrong fix's edit must match its reference fix once, "
                f"{old!r} matches {count} times"
            )
        source = source.replace(old, new)
    return source
