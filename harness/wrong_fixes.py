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

A report's wrong fixes come in rounds (round 1, then one per later round of blind wrong fixes;
names unique across a report's rounds). A round is a table of ``bugs/<report>/wrong_fixes.toml``
when each of its wrong fixes is the reference fix's own text with one step changed (a hand-made
mutant: nothing is copied), and a module when one needs code:

    [round<N>]
    about = "what the round is, who wrote it, what it left"
    [round<N>.<name>]
    mistake = "one line: the mistake this variant models"
    edits = [{old = "text of the reference fix, found there exactly once", new = "its wrong text"}]
      or edits_of = "<another wrong fix of the report: the same edits>"
      or run = "<expression>": the reference fix's ``run`` replaced by a wrong one
         (harness/input_copy_mistakes.py: ``run_is``)
    unseen = "why no test can see it"              (optional; scripts/wrong_fixes.py skips it)
    not_on_tvm_tirx = "why no program of that line tells it apart"    (optional)

A module is bugs/<report>/wrong_fixes.py (round 1) or bugs/<report>/wrong_fixes_round<N>.py, with

    WRONG_FIXES = {name: "one line: the mistake this variant models", ...}
    def install(name): install that wrong fix in this process; return an uninstaller

or, where each wrong fix only replaces attributes of the reference fix, ``PATCHES = {name:
{attr: wrong value}}`` instead of ``install``; or ``EDITS = {name: [(old text, new text),
...]}`` as in a table; ``UNSEEN`` and ``NOT_ON_TVM_TIRX`` as dicts {name: why}, and
``NEEDS_OPENCL = True`` where only a launch on OpenCL tells its wrong fixes apart (runtimes).

``catalogue()`` and ``parse()`` read the tables, and each module's ``WRONG_FIXES`` from its
source when it is a plain literal, without importing the module: importing it imports TVM
(about a second), and naming or checking a wrong fix (``scripts/wrong_fixes.py --list``, a
``--wrong-fix`` typo) needs none.
"""

import ast
import functools
import importlib
from pathlib import Path

import tomllib

from bug_reports import BUG_REPORTS

# the bug folders: bugs/<report>/wrong_fixes.toml and wrong_fixes*.py
BUGS = Path(__file__).resolve().parent.parent / "bugs"
TABLE = "wrong_fixes.toml"
# a module's dicts and the keys of a table's wrong fix that say the same
_FIELDS = {"UNSEEN": "unseen", "NOT_ON_TVM_TIRX": "not_on_tvm_tirx"}


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


def _round_number(path):
    """1 for wrong_fixes.py, N for wrong_fixes_round<N>.py."""
    return 1 if path.stem == "wrong_fixes" else int(path.stem.removeprefix("wrong_fixes_round"))


def _table(report):
    """{round number: that round's table} of bugs/<report>/wrong_fixes.toml ({} without one)."""
    path = BUGS / report / TABLE
    if not path.is_file():
        return {}
    return _table_version(path, path.stat().st_mtime_ns)


# a table's wrong fix: what it must and may say
_HOW = ("edits", "edits_of", "run")
_KEYS = {"mistake", *_HOW, *_FIELDS.values()}


@functools.cache
def _table_version(path, _mtime_ns):
    """``_table`` of one version of the file (parsed once per process), checked: each round
    is ``round<N>`` with an ``about`` and its wrong fixes, each with a ``mistake`` and one of
    ``edits``, ``edits_of`` or ``run`` (a misspelt key would silently change what runs)."""
    with path.open("rb") as f:
        data = tomllib.load(f)
    for key, round_table in data.items():
        if not (key.startswith("round") and key.removeprefix("round").isdigit()):
            raise ValueError(f"{path}: [{key}] is not a round (round<N>)")
        for name, fix in round_table.items():
            if not isinstance(fix, dict):
                if name != "about":
                    raise ValueError(f"{path}: [{key}] {name} is neither about nor a wrong fix")
                continue
            where = f"{path}: [{key}.{name}]"
            if set(fix) - _KEYS:
                raise ValueError(f"{where} has unknown keys {sorted(set(fix) - _KEYS)}")
            if "mistake" not in fix or sum(how in fix for how in _HOW) != 1:
                raise ValueError(f"{where} needs a mistake and one of {', '.join(_HOW)}")
    return {int(key.removeprefix("round")): value for key, value in data.items()}


def _rounds(report):
    """``report``'s rounds in order: (number, module path or None for a table round)."""
    if report not in BUG_REPORTS:
        raise ValueError(f"unknown report {report!r}; known: {', '.join(BUG_REPORTS)}")
    modules = [(_round_number(p), p) for p in (BUGS / report).glob("wrong_fixes*.py")]
    tables = [(number, None) for number in _table(report)]
    both = {number for number, _ in modules} & {number for number, _ in tables}
    if both:  # rounds() and the catalogue's order are by number: one round, one place
        raise ValueError(f"{report}: round(s) {sorted(both)} both a module and a table round")
    return sorted(modules + tables, key=lambda r: r[0])


def _fixes_of(report, number):
    """The wrong fixes of a table round: {name: its table}."""
    return {k: v for k, v in _table(report)[number].items() if isinstance(v, dict)}


def _declared_round(report, number, path):
    """{name: description} of one round."""
    if path is None:
        return {name: fix["mistake"] for name, fix in _fixes_of(report, number).items()}
    return _declared_in(report, path)


def rounds(report):
    """{round number: {name: description}} of ``report``'s wrong fixes."""
    return {n: _declared_round(report, n, path) for n, path in _rounds(report)}


def _round_of(report, name):
    """(number, module path or None) of the round that declares ``name``; None if none does."""
    for number, path in _rounds(report):
        if name in _declared_round(report, number, path):
            return number, path
    return None


def _module(report, path):
    return importlib.import_module(f"bugs.{report}.{path.stem}")


def listed(report, name, table):
    """Whether the wrong fix ``name`` is marked ``table`` (``NOT_ON_TVM_TIRX``: no program of
    that line tells it apart; ``UNSEEN``: no test can): a key of its table, or listed in its
    module's dict of that name."""
    found = _round_of(report, name)
    if found is None:
        return False
    number, path = found
    if path is None:
        return _FIELDS[table] in _fixes_of(report, number)[name]
    return name in getattr(_module(report, path), table, {})


def _declared(report):
    """{name: description} over ``report``'s rounds ({} without one)."""
    found = {}
    for number, path in _rounds(report):
        found.update(_declared_round(report, number, path))
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
    """Whether ``report``'s wrong fixes are OpenCL runtimes (a module sets ``NEEDS_OPENCL =
    True`` at top level): only a launch tells them apart. Read from the source, as
    ``_declared`` reads ``WRONG_FIXES``, without importing TVM."""
    return any(
        isinstance(node, ast.Assign)
        and [getattr(t, "id", None) for t in node.targets] == ["NEEDS_OPENCL"]
        and isinstance(node.value, ast.Constant)
        and node.value.value is True
        for _, path in _rounds(report)
        if path is not None
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


def edits(report, name, _via=()):
    """The edits [(old, new), ...] of the wrong fix ``name``: its table's ``edits``,
    ``edits_of`` or ``run``, or its module's ``EDITS``; None for one a module installs. A
    chain of ``edits_of`` that comes back to a fix is a ValueError naming the chain."""
    if name in _via:
        raise ValueError(f"{report}: edits_of goes round: {' -> '.join((*_via, name))}")
    number, path = _round_of(report, name)
    if path is not None:
        found = getattr(_module(report, path), "EDITS", {}).get(name)
        return None if found is None else list(found)
    fix = _fixes_of(report, number)[name]
    if "edits_of" in fix:
        return edits(report, fix["edits_of"], (*_via, name))
    if "run" in fix:
        from harness.input_copy_mistakes import run_is

        return run_is(report, fix["run"])
    return [(edit["old"], edit["new"]) for edit in fix["edits"]]


def install(spec):
    """Install the wrong fix 'REPORT:NAME'; return an uninstaller: its module's ``install``,
    its ``PATCHES`` of the reference fix's attributes, or its edits of the reference fix's
    text (``edits``)."""
    report, name = parse(spec)
    _, path = _round_of(report, name)
    module = None if path is None else _module(report, path)
    if module is not None and hasattr(module, "install"):
        return module.install(name)
    changes = edits(report, name)
    if changes is not None:
        from harness.reference_fixes import install_source

        return install_source(report, edited_source(report, changes))
    fix = importlib.import_module(f"bugs.{report}.reference_fix")
    return patched_install(fix, module.PATCHES[name])


def edited_source(report, changes):
    """The text of ``report``'s reference fix with each ``(old, new)`` of ``changes`` made:
    ``old`` must occur in it exactly once (a wrong fix names the one step it changes)."""
    source = (BUGS / report / "reference_fix.py").read_text()
    for old, new in changes:
        count = source.count(old)
        if count != 1:
            raise ValueError(
                f"{report}: a wrong fix's edit must match its reference fix once, "
                f"{old!r} matches {count} times"
            )
        source = source.replace(old, new)
    return source
