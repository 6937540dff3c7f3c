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
"""Merge this repository's upstream test files into a TVM checkout.

    python scripts/export_to_tvm.py --tvm-root ~/src/tvm [--force] [--dry-run]
                                    [--drop-bug-xfails[=NAMES]] [--no-lint] [--only PATH ...]

* Every ``tests/python/<folder>/test_*.py`` of this repository holds only the tests it adds
  to TVM's file of the same path. Where the checkout has that file, the tests are merged
  into it: imports added to TVM's imports (then sorted by ruff), the rest inserted before
  TVM's ``if __name__ == "__main__":`` block. Where it has none, the file is created.
* A merge is refused (exit 1) when a top-level name of ours is already defined in TVM's
  file (an earlier export, or a clash); ``--force`` first removes those definitions from
  TVM's file (re-export).
* The files are written against the pinned wheel's API and adapted to the checkout: the
  TVMScript buffer annotation (newer TVM main, after apache/tvm#20519, spells it
  ``T.Tensor``; 0.27 and older ``T.Buffer``), and kernel launches (a checkout without
  ``T.call_ffi_kernel``, such as TVM main of 2026-08, launches with ``T.call_packed`` and
  gives each kernel a ``global_symbol``).
* ``--drop-bug-xfails`` removes the strict xfail marks that belong to the bug reports (for
  a checkout that carries the fixes: this is how patches/ gets its tests);
  ``--drop-bug-xfails=NAMES`` only those of these reports (comma-separated keys of
  bug_reports.py): the others' stay strict xfails (a build with some of the fixes).
* ``--only PATH[::NAMES]``: export just these files (paths as in this repository,
  repeatable); ``::a,b`` keeps only those top-level definitions of the file, ``::-a,b`` all
  but those (two patches adding tests to the same TVM file).
* ``--api-of PYTHON``: adapt to the TVM that interpreter imports instead of the checkout's
  own sources (a wheel run inside a TVM tree of another version).
* ruff then sorts the merged imports, formats, checks and format-checks the written
  files with the checkout's own configuration, when ruff is available (``--no-lint``
  skips the check; without ruff the merged imports stay unsorted).

Exit codes: 0 done; 1 something refused or lint findings; 2 bad input (not a TVM
checkout, unknown spelling), each with a one-line reason.
"""

import argparse
import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = ROOT / "tests" / "python"
sys.path.insert(0, str(ROOT))
from bug_reports import BUG_REPORTS, report_of  # noqa: E402

SPELLING_DEF = re.compile(r"^(Buffer|Tensor)\s*=\s*\w*Proxy\(", re.MULTILINE)


class ExportError(Exception):
    """Bad input; the message is the one-line reason."""


def check_checkout(root):
    if not root.is_dir():
        raise ExportError(f"{root} is not a directory")
    markers = ["python/tvm/__init__.py", "tests/python", "CMakeLists.txt"]
    missing = [m for m in markers if not (root / m).exists()]
    if missing:
        raise ExportError(f"{root} is not a TVM checkout (missing {', '.join(missing)})")


def checkout_spelling(root):
    """'Buffer' or 'Tensor': how the checkout's TVMScript spells the buffer annotation."""
    found = set()
    for path in (root / "python" / "tvm").rglob("*.py"):
        if "script" in path.parts:
            found.update(SPELLING_DEF.findall(path.read_text(errors="replace")))
    if "Buffer" in found:
        return "Buffer"
    if "Tensor" in found:
        return "Tensor"
    raise ExportError(f"cannot tell the TVMScript buffer spelling of {root} (no Buffer/Tensor)")


def adapt_spelling(text, spelling):
    if spelling == "Tensor":
        return re.sub(r"\bT\.Buffer\b", "T.Tensor", text)
    return text


def checkout_has_ffi_kernel_launch(root):
    """Whether the checkout's TVMScript knows ``T.call_ffi_kernel`` (the wheel's kernel
    launch); TVM main of 2026-08 launches with ``T.call_packed`` instead."""
    for path in (root / "python" / "tvm").rglob("*.py"):
        if "call_ffi_kernel" in path.read_text(errors="replace"):
            return True
    return False


API_PROBE = """
import json
import tvm.tirx.op as op
from tvm.script import tirx as T
spelling = "Buffer" if hasattr(T, "Buffer") else "Tensor" if hasattr(T, "Tensor") else None
print(json.dumps({"spelling": spelling, "ffi_launch": hasattr(op, "call_ffi_kernel")}))
"""


def api_of(python):
    """(spelling, ffi_launch) of the TVM that ``python`` imports."""
    try:
        proc = subprocess.run([python, "-c", API_PROBE], capture_output=True, text=True)
        api = json.loads(proc.stdout.strip().splitlines()[-1])
    except (OSError, IndexError, ValueError):
        raise ExportError(f"--api-of {python}: cannot import tvm there") from None
    if api["spelling"] is None:
        raise ExportError(f"--api-of {python}: its TVMScript has neither T.Buffer nor T.Tensor")
    return api["spelling"], api["ffi_launch"]


def _replace(text, edits):
    """Apply (start, end, replacement) character edits, which must not overlap."""
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _name_constant_lists(text):
    """A list literal equal to a module-level list constant (what a list with one bug-marked
    ``pytest.param`` becomes once the mark is dropped) is written as the constant's name."""
    tree = ast.parse(text)
    named = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.List)
        ):
            named.setdefault(ast.dump(node.value), (node.targets[0].id, node.value))
    pos = _offsets(text)
    edits = []
    for node in ast.walk(tree):
        name, definition = (
            named.get(ast.dump(node), (None, None)) if isinstance(node, ast.List) else (None, None)
        )
        if name is not None and node is not definition:
            start = pos(node.lineno, node.col_offset)
            edits.append((start, pos(node.end_lineno, node.end_col_offset), name))
    return _replace(text, edits)


def _offsets(text):
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return lambda lineno, col: starts[lineno - 1] + col


def _is_private(node):
    """Whether ``node`` is decorated ``@T.prim_func(private=True)`` (or any ``private=True``)."""
    return any(
        isinstance(d, ast.Call)
        and any(
            kw.arg == "private" and isinstance(kw.value, ast.Constant) and kw.value.value is True
            for kw in d.keywords
        )
        for d in node.decorator_list
    )


def adapt_launch(text):
    """Spell kernel launches as a tree without ``T.call_ffi_kernel`` has them.

    There, SplitHostDevice launches a kernel with ``T.call_packed(name, args..., extents...)``
    (no ``launch_params=``; its int32 result needs no ``ret_ty=``) and gives every kernel a
    ``global_symbol`` attribute of its name (a private one keeps none). A kernel is a function
    whose ``T.func_attr`` has ``"calling_conv": 2``, literally or in the dict a module-level
    helper returns (the helper call is inlined there).
    """
    tree = ast.parse(text)
    pos = _offsets(text)

    def span(node):
        return pos(node.lineno, node.col_offset), pos(node.end_lineno, node.end_col_offset)

    helpers = {}
    for node in tree.body:
        if (
            isinstance(node, ast.FunctionDef)
            and not node.args.args
            and isinstance(node.body[-1], ast.Return)
            and isinstance(node.body[-1].value, ast.Dict)
        ):
            helpers[node.name] = node.body[-1].value

    def is_kernel_attrs(d):
        return any(
            isinstance(k, ast.Constant) and k.value == "calling_conv" for k in d.keys if k
        ) and not any(isinstance(k, ast.Constant) and k.value == "global_symbol" for k in d.keys)

    edits, inlined = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "T.call_ffi_kernel":
            parts = [ast.get_source_segment(text, a) for a in node.args]
            parts += [
                f"{kw.arg}={ast.get_source_segment(text, kw.value)}"
                for kw in node.keywords
                if kw.arg not in ("launch_params", "ret_ty")
            ]
            edits.append((*span(node), f"T.call_packed({', '.join(parts)})"))
        if not isinstance(node, ast.FunctionDef) or _is_private(node):
            continue  # a private function has no global_symbol, kernel or not
        for stmt in node.body:
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if not (
                isinstance(call, ast.Call)
                and ast.unparse(call.func) == "T.func_attr"
                and len(call.args) == 1
            ):
                continue
            arg = call.args[0]
            if isinstance(arg, ast.Call) and not arg.args and ast.unparse(arg.func) in helpers:
                inlined.add(ast.unparse(arg.func))
                d = helpers[ast.unparse(arg.func)]
            elif isinstance(arg, ast.Dict):
                d = arg
            else:
                continue
            if not is_kernel_attrs(d):
                continue
            body = ast.get_source_segment(text, d).rstrip()[:-1].rstrip().rstrip(",")
            edits.append((*span(arg), f'{body}, "global_symbol": "{node.name}"}}'))
    text = _replace(text, edits)
    # helpers whose every use was inlined
    tree = ast.parse(text)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return _cut_defs(text, [n for n in tree.body if getattr(n, "name", None) in inlined - used])


def _cut_defs(text, nodes):
    lines = text.splitlines(keepends=True)
    for node in sorted(nodes, key=lambda n: -n.lineno):
        del lines[_first_line(node) - 1 : node.end_lineno]
    return re.sub(r"\n{4,}", "\n\n\n", "".join(lines))


def _string_constants(tree):
    """Module-level ``NAME = "text"`` assignments: {name: (text, node)}."""
    found = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = (node.value.value, node)
    return found


def _names_a_bug(text, reports=None):
    report = report_of(text)
    return report is not None and (reports is None or report in reports)


def _is_bug_xfail(node, constants, reports=None):
    """True for a ``pytest.mark.xfail(...)`` call whose reason (a literal, or a module-level
    string constant) names a bug report (one of ``reports``, when given)."""
    if not (isinstance(node, ast.Call) and ast.unparse(node.func) == "pytest.mark.xfail"):
        return False
    reasons = [kw.value for kw in node.keywords if kw.arg == "reason"] + node.args[1:2]
    for reason in reasons:
        if isinstance(reason, ast.Name) and reason.id in constants:
            text = constants[reason.id][0]
        else:
            text = ast.unparse(reason)
        if _names_a_bug(text, reports):
            return True
    return False


def _cut(text, cuts):
    """Delete (start, end) character ranges."""
    return _replace(text, [(start, end, "") for start, end in set(cuts)])


def drop_bug_xfails(text, reports=None):
    """Remove bug xfail marks: decorators, ``marks=`` of pytest.param, module-level names
    bound to such a mark, and the reason constants that only they used; only the marks of
    ``reports`` (report keys) when given, every report's otherwise."""
    tree = ast.parse(text)
    used_before = _loaded_names(tree)
    constants = _string_constants(tree)
    pos = _offsets(text)

    mark_names = set()
    cuts = []  # (start, end) character ranges to delete
    for node in tree.body:
        if isinstance(node, ast.Assign) and _is_bug_xfail(node.value, constants, reports):
            mark_names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            cuts.append((pos(node.lineno, 0), pos(node.end_lineno + 1, 0)))

    def is_mark(expr):
        return _is_bug_xfail(expr, constants, reports) or (
            isinstance(expr, ast.Name) and expr.id in mark_names
        )

    for node in ast.walk(tree):
        decorated = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for deco in node.decorator_list if decorated else []:
            if is_mark(deco):
                cuts.append((pos(deco.lineno, 0), pos(deco.end_lineno + 1, 0)))
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "pytest.param":
            for kw in node.keywords:
                if kw.arg != "marks":
                    continue
                values = kw.value.elts if isinstance(kw.value, ast.List | ast.Tuple) else None
                if (values is None and is_mark(kw.value)) or (values and all(map(is_mark, values))):
                    if len(node.args) == 1 and len(node.keywords) == 1:
                        # pytest.param(value, marks=BUG) -> value
                        value = node.args[0]
                        cuts.append(
                            (pos(node.lineno, node.col_offset), pos(value.lineno, value.col_offset))
                        )
                        cuts.append(
                            (
                                pos(value.end_lineno, value.end_col_offset),
                                pos(node.end_lineno, node.end_col_offset),
                            )
                        )
                        continue
                    if len(node.keywords) == 1:
                        # pytest.param(a, b, marks=BUG) -> (a, b): no marks, no id left
                        cuts.append(
                            (
                                pos(node.func.lineno, node.func.col_offset),
                                pos(node.func.end_lineno, node.func.end_col_offset),
                            )
                        )
                    start = pos(kw.lineno, kw.col_offset)
                    end = pos(kw.value.end_lineno, kw.value.end_col_offset)
                    # take the separating comma before the keyword with it
                    while start > 0 and text[start - 1] in " \t\n":
                        start -= 1
                    if text[start - 1] == ",":
                        start -= 1
                    cuts.append((start, end))
    text = _cut(text, cuts)
    # reason constants no longer used by anything
    tree = ast.parse(text)
    used = _loaded_names(tree)
    text = _cut(
        text,
        [
            (pos_in(text, node.lineno), end_of_line(text, node.end_lineno))
            for name, (value, node) in _string_constants(tree).items()
            if _names_a_bug(value) and name not in used
        ],
    )
    # imports that only the marks used (``import pytest``)
    text = _cut(text, [(pos_in(text, n.lineno), end_of_line(text, n.end_lineno)) for n in
                       _unused_imports(text, used_before)])  # fmt: skip
    text = _name_constant_lists(text)
    # what was cut leaves at most the two blank lines that separate top-level statements
    text = re.sub(r"\n{4,}", "\n\n\n", text)
    constants = _string_constants(ast.parse(text))
    if any(_is_bug_xfail(n, constants, reports) for n in ast.walk(ast.parse(text))):
        raise ExportError("a bug xfail mark has a form this script cannot remove")
    return text


def _loaded_names(tree):
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _unused_imports(text, used_before):
    """Top-level ``import X`` statements whose name was used before the marks were cut and
    is not any more."""
    tree = ast.parse(text)
    used = _loaded_names(tree)
    found = []
    for node in tree.body:
        if isinstance(node, ast.Import) and len(node.names) == 1:
            name = node.names[0].asname or node.names[0].name.split(".")[0]
            if name in used_before and name not in used:
                found.append(node)
    return found


def pos_in(text, lineno):
    """Character offset of the start of line ``lineno`` (1-based)."""
    return sum(len(line) for line in text.splitlines(keepends=True)[: lineno - 1])


def end_of_line(text, lineno):
    """Character offset just past line ``lineno`` (1-based)."""
    return pos_in(text, lineno + 1)


def _is_main_block(node):
    return isinstance(node, ast.If) and "__name__" in ast.unparse(node.test)


def _first_line(node):
    """First line of a top-level statement, its decorators included (1-based)."""
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])


def _defined_names(node):
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    return set()


def _imported(node):
    """{(module, name, asname)} an import statement binds; module is None for ``import``."""
    if isinstance(node, ast.Import):
        return {(None, a.name, a.asname) for a in node.names}
    return {(node.module, a.name, a.asname) for a in node.names}


def select_names(text, spec):
    """Keep only some top-level definitions of one of our files: ``spec`` is ``a,b`` (just
    these) or ``-a,b`` (all but these). Module-level names and imports that only the
    dropped definitions used go too."""
    exclude = spec.startswith("-")
    names = set(spec.lstrip("-").split(","))
    tree = ast.parse(text)
    defined = set().union(*map(_defined_names, tree.body))
    unknown = names - defined
    if unknown:
        raise ExportError(f"no top-level {', '.join(sorted(unknown))} to select")
    defs = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    # tests are selected by the spec; a helper goes when excluded by name or unused
    drop = [
        n
        for n in tree.body
        if isinstance(n, defs)
        and (n.name.startswith("test_") or exclude)
        and ((n.name in names) == exclude)
    ]
    while True:
        text = _cut_defs(text, drop)
        tree = ast.parse(text)
        used = _loaded_names(tree)
        drop = [
            n
            for n in tree.body
            if (isinstance(n, ast.Assign) and not _defined_names(n) & used)
            or (isinstance(n, defs) and not n.name.startswith("test_") and n.name not in used)
            or (
                isinstance(n, ast.Import | ast.ImportFrom)
                and not {a.asname or a.name.split(".")[0] for a in n.names} & used
            )
        ]
        if not drop:
            return text


def split_ours(text):
    """An upstream file of this repository -> (import statements, body text): the body is
    everything after the imports up to the ``__main__`` block (the tests and helpers)."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    rest = [
        n
        for n in tree.body
        if not isinstance(n, ast.Import | ast.ImportFrom)
        and not _is_main_block(n)
        and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
    ]
    if not rest:
        raise ExportError("an upstream file has no tests")
    start = max(n.end_lineno for n in imports) if imports else _first_line(rest[0]) - 1
    body = "".join(lines[start : rest[-1].end_lineno]).strip("\n") + "\n"
    return imports, body


def merge(ours, theirs, force):
    """Merge our file's tests into TVM's file text ``theirs``; return (text, removed names).
    Raises ExportError("clash: ...") when a name of ours is taken and ``force`` is off."""
    names = set().union(*map(_defined_names, ast.parse(ours).body))
    tree = ast.parse(theirs)
    taken = names & set().union(*map(_defined_names, tree.body))
    # a helper TVM's file already has word for word (one that an earlier patch added for
    # tests of its own) is not merged twice; a test always is, or clashes
    same = {ast.dump(n) for n in tree.body if _defined_names(n)}
    helpers = [
        n
        for n in ast.parse(ours).body
        if _defined_names(n)
        and not any(name.startswith("test_") for name in _defined_names(n))
        and ast.dump(n) in same
    ]
    clash = sorted(taken - set().union(set(), *map(_defined_names, helpers)))
    if clash and not force:
        raise ExportError(f"clash: {', '.join(clash)} already defined")
    if not force:
        ours = _cut_defs(ours, helpers)
    else:
        clash = sorted(taken)
    imports, body = split_ours(ours)
    # drop the clashing definitions (a re-export), with the comments above them
    theirs = _cut_defs_with_comments(theirs, lambda names: names & set(clash))
    tree = ast.parse(theirs)
    lines = theirs.splitlines(keepends=True)
    have = set().union(
        *(_imported(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom))
    )
    new_imports = []
    for node in imports:
        for module, name, asname in sorted(_imported(node) - have, key=str):
            alias = f"{name} as {asname}" if asname else name
            new_imports.append(f"from {module} import {alias}\n" if module else f"import {alias}\n")
    main = next((n for n in tree.body if _is_main_block(n)), None)
    cut = _first_line(main) - 1 if main else len(lines)
    head, tail = "".join(lines[:cut]).rstrip("\n"), "".join(lines[cut:])
    text = head + "\n\n\n" + body + ("\n\n" + tail if tail else "")
    last_import = max(
        (n.end_lineno for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)), default=0
    )
    out = text.splitlines(keepends=True)
    out[last_import:last_import] = new_imports
    return "".join(out), clash


def _cut_defs_with_comments(text, drop):
    """Take out the top-level definitions for which ``drop(names)`` holds, each with the
    comments and blank lines above it."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    ends = [0] + [n.end_lineno for n in tree.body]
    for i, node in reversed(list(enumerate(tree.body))):
        names = _defined_names(node)
        if names and drop(names):
            # an indented comment right after the previous definition is its own (e.g. the
            # `# fmt: on` that closes its `# fmt: off`): it stays
            start = ends[i]
            while start < node.lineno - 1 and lines[start][:1] in " \t":
                start += 1
            lines[start : node.end_lineno] = ["\n"]
    return re.sub(r"\n{4,}", "\n\n\n", "".join(lines))


def prune_added(text, base):
    """Remove from ``text`` (TVM's file with an earlier export merged in, perhaps edited by
    a patch) every top-level definition and import statement that TVM's file ``base`` does not
    have: what an earlier export added (a later export adds back the imports it needs). Edits
    to TVM's own definitions stay."""
    base_tree = ast.parse(base)
    keep = set().union(*map(_defined_names, base_tree.body))
    imports = ast.Import | ast.ImportFrom
    base_imports = set().union(*(_imported(n) for n in base_tree.body if isinstance(n, imports)))
    text = _cut_defs_with_comments(text, lambda names: not names & keep)
    lines = text.splitlines(keepends=True)
    for node in reversed(ast.parse(text).body):
        if isinstance(node, imports) and not _imported(node) & base_imports:
            start, end = node.lineno - 1, node.end_lineno
            # the blank line that separated it from the next group goes with it where it
            # followed a comment, a blank line or the start of the file
            before = lines[start - 1].strip() if start else ""
            if end < len(lines) and not lines[end].strip() and not before[:1].isalnum():
                end += 1
            del lines[start:end]
    return re.sub(r"\n{4,}", "\n\n\n", "".join(lines))


def find_ruff():
    # on PATH, beside this interpreter, or the pinned one of this repository's .venv
    candidates = [Path(sys.executable).with_name("ruff"), ROOT / ".venv" / "bin" / "ruff"]
    return shutil.which("ruff") or next((str(c) for c in candidates if c.exists()), "")


def ruff_tidy(root, files):
    """Sort the merged imports and format (after a merge or an adaptation), with the
    checkout's configuration."""
    ruff = find_ruff()
    rel = [str(f.relative_to(root)) for f in files]
    if ruff and rel:
        for args in (["check", "--no-cache", "--fix", "--select", "I"], ["format", "--no-cache"]):
            subprocess.run([ruff, *args, *rel], cwd=root, check=False, capture_output=True)


def ruff_lint(root, files):
    ruff = find_ruff()
    if not ruff:
        print("lint: ruff not found, skipped")
        return True
    ok = True
    rel = [str(f.relative_to(root)) for f in files]
    for args in (["check", "--no-cache"], ["format", "--check", "--no-cache"]):
        proc = subprocess.run([ruff, *args, *rel], cwd=root, check=False)
        ok &= proc.returncode == 0
    print(f"lint: ruff with {root}'s configuration: {'clean' if ok else 'FINDINGS'}")
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tvm-root", required=True, type=Path, help="the TVM checkout")
    parser.add_argument("--force", action="store_true", help="overwrite existing files")
    parser.add_argument("--dry-run", action="store_true", help="only print what would happen")
    parser.add_argument(
        "--drop-bug-xfails",
        nargs="?",
        const="all",
        default=None,
        metavar="NAMES",
        help="remove the bug reports' xfail marks; =NAMES: only those reports' (comma-separated)",
    )
    parser.add_argument("--no-lint", action="store_true", help="do not run ruff afterwards")
    parser.add_argument("--only", action="append", default=[], metavar="PATH")
    parser.add_argument(
        "--api-of",
        metavar="PYTHON",
        help="adapt to the TVM this interpreter imports, not to the checkout's sources",
    )
    args = parser.parse_args(argv)
    root = args.tvm_root.expanduser().resolve()
    drop = None if args.drop_bug_xfails in (None, "all") else set(args.drop_bug_xfails.split(","))
    try:
        unknown = sorted((drop or set()) - set(BUG_REPORTS))
        if unknown:
            raise ExportError(f"--drop-bug-xfails: unknown report(s) {', '.join(unknown)}")
        check_checkout(root)
        if args.api_of:
            spelling, ffi_launch = api_of(args.api_of)
        else:
            spelling = checkout_spelling(root)
            ffi_launch = checkout_has_ffi_kernel_launch(root)
        sources = sorted(UPSTREAM.rglob("test_*.py"))
        if not sources:
            raise ExportError(f"no upstream test files under {UPSTREAM}")
        selection = {}
        if args.only:
            known = {str(s.relative_to(ROOT)): s for s in sources}
            only = [o.partition("::") for o in args.only]
            unknown = [path for path, _, _ in only if path not in known]
            if unknown:
                raise ExportError(f"--only: not an upstream test file: {', '.join(unknown)}")
            sources = [known[path] for path, _, _ in only]
            selection = {known[path]: spec for path, _, spec in only if spec}
        outputs = {}
        for src in sources:
            text = src.read_text()
            if src in selection:
                text = select_names(text, selection[src])
            text = adapt_spelling(text, spelling)
            if not ffi_launch:
                text = adapt_launch(text)
            if args.drop_bug_xfails:
                text = drop_bug_xfails(text, drop)
            outputs[src] = text
    except ExportError as err:
        print(f"export_to_tvm: error: {err}", file=sys.stderr)
        return 2
    launch = "T.call_ffi_kernel" if ffi_launch else "T.call_packed + kernel global_symbol"
    print(f"TVM checkout {root} (TVMScript spelling T.{spelling}; kernel launch {launch})")
    written, merged, refused = [], [], []
    for src, text in outputs.items():
        dest = root / src.relative_to(ROOT)
        rel = dest.relative_to(root)
        note = f"+{len(text.splitlines())} lines"
        if dest.exists():
            try:
                text, removed = merge(text, dest.read_text(), args.force)
            except ExportError as err:
                refused.append(rel)
                print(f"  refused  {rel} ({err}; --force to re-export)")
                continue
            action = "merge"
            note = (
                f"into TVM's file, {len(removed)} earlier definitions replaced"
                if removed
                else ("into TVM's file")
            )
        else:
            action = "create"
        print(f"  {action:<9}{rel} ({note})" + (" (dry run)" if args.dry_run else ""))
        if not args.dry_run:
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(text)
            written.append(dest)
            if action == "merge":
                merged.append(dest)
    ruff_tidy(root, written)
    lint_ok = True
    if written and not args.no_lint:
        lint_ok = ruff_lint(root, written)
    print(f"{len(written)} written, {len(refused)} refused")
    return 0 if lint_ok and not refused else 1


if __name__ == "__main__":
    sys.exit(main())
