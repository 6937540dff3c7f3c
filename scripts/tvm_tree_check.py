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
"""Run the upstream test files as TVM's CI would: exported into a TVM tree, under its
conftests, with a given TVM.

    python scripts/tvm_tree_check.py --tvm-tree DIR [--expect-fixed | --reference-fixes]
                                     [--python PY] [--whole-files] [--keep DIR]
    python scripts/tvm_tree_check.py --tvm-git [REPO] [--expect-fixed | --reference-fixes] ...
    python scripts/tvm_tree_check.py --fake [--expect-fixed | --reference-fixes] ...

* ``--tvm-tree DIR``: a TVM checkout, or a tree unpacked with ``git archive`` (needs
  ``python/``, ``tests/``, ``CMakeLists.txt``, ``pyproject.toml``). It is copied to a
  scratch folder first; DIR itself is never written.
* ``--tvm-git [REPO]``: the tree of TVM at the base commit (``TVM_COMMIT``), unpacked with
  ``git archive`` from REPO, default ``TVM_GIT``, else a local copy of TVM at the base
  commit, when present (scripts/tvm_source.py): TVM's own conftests and neighbouring tests, on
  any machine that has that copy (scripts/test.sh --tools).
* ``--fake``: no TVM source at hand (CI): a skeleton tree whose only conftest is this
  repository's stand-in for TVM's (tests/python/relax/conftest.py), so the files run as
  exported, without this repository's root conftest.
* The files are exported with scripts/export_to_tvm.py (merged into TVM's files, adapted
  to the API of the TVM that PY imports); with
  ``--expect-fixed`` the bug xfails of the reports with a C++ patch are dropped
  (bug_reports.PATCHED: what a patched source build carries), with ``--reference-fixes``
  those of the reports with a reference fix (bug_reports.REFERENCE_FIXED), which it installs
  into the pytest process (through harness/child_site): those bug tests must pass, the
  others stay strict xfails (the first line says which). Without either, all must xfail.
* Runs our tests only (by node id), or with ``--whole-files`` every test of the touched
  files (TVM's own included), with PY (default: this interpreter; e.g. $TVM_PYTHON).

Runs one pytest for every file and prints the outcomes per file; exit 0 when nothing failed
or errored, 1 otherwise,
2 with a one-line reason when it cannot run.
"""

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = ROOT / "tests" / "python"
sys.path.insert(0, str(ROOT))
from bug_reports import BUG_REPORTS, PATCHED, REFERENCE_FIXED  # noqa: E402

TREE_PARTS = ["python", "tests", "CMakeLists.txt", "pyproject.toml"]


class CheckError(Exception):
    """Cannot run; the message is the one-line reason."""


def our_files():
    return sorted(UPSTREAM.rglob("test_*.py"))


def our_tests(path):
    """Top-level test functions of one of our files."""
    tree = ast.parse(path.read_text())
    return [
        n.name
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test_")
    ]


def source_tree(args):
    """The --tvm-tree folder, checked: a TVM checkout or unpacked tree (None with --fake)."""
    if args.fake:
        return None
    if args.tvm_tree is None:  # --tvm-git: unpacked by make_tree, from a checked commit
        return None
    src = args.tvm_tree.expanduser().resolve()
    missing = [p for p in TREE_PARTS if not (src / p).exists()]
    if missing:
        raise CheckError(f"{src} is not a TVM tree (missing {', '.join(missing)})")
    return src


def _archive(args, scratch):
    """--tvm-git: the base commit's TREE_PARTS unpacked into ``scratch/src``."""
    source = _tvm_source()
    repo = args.tvm_git or source.default_repo()
    if repo is None:
        raise CheckError(f"--tvm-git: TVM_GIT is not set and {source.SHARED} is not there")
    commit = os.environ.get("TVM_COMMIT", source.DEFAULT_COMMIT)
    try:
        git_dir = source.holding(repo, commit)
    except source.NoSource as err:
        raise CheckError(f"--tvm-git: {err}") from None
    src = scratch / "src"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(git_dir), "archive", commit, *TREE_PARTS],
                             capture_output=True, check=False)  # fmt: skip
    if archive.returncode != 0:
        raise CheckError(f"--tvm-git: git archive failed: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, check=True)
    return src


def _tvm_source():
    sys.path.insert(0, str(ROOT / "scripts"))
    import tvm_source

    return tvm_source


def make_tree(args, scratch):
    tree = scratch / "tvm"
    if args.fake:
        (tree / "python" / "tvm" / "script").mkdir(parents=True)
        (tree / "python" / "tvm" / "__init__.py").write_text("")
        # export_to_tvm.py reads the TVMScript buffer spelling from python/tvm/**/script
        # ... and its kernel launch from whether it knows call_ffi_kernel: the wheel's API
        (tree / "python" / "tvm" / "script" / "api.py").write_text(
            "Buffer = Proxy()\ncall_ffi_kernel = None\n"
        )
        (tree / "CMakeLists.txt").write_text("project(tvm C CXX)\n")
        shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
        for conftest in UPSTREAM.rglob("conftest.py"):
            dest = tree / conftest.relative_to(ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(conftest, dest)
        return tree
    src = source_tree(args) or _archive(args, scratch)
    for part in TREE_PARTS:
        copy = shutil.copytree if (src / part).is_dir() else shutil.copy
        copy(src / part, tree / part, **({"symlinks": True} if copy is shutil.copytree else {}))
    return tree


def _outcomes_per_file(junit):
    """{test file: {outcome: count}} from pytest's JUnit XML, outcomes in pytest's words."""
    counts = {}
    for case in ElementTree.parse(junit).iter("testcase"):
        path = case.get("file") or case.get("classname", "").replace(".", "/") + ".py"
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed" if child.tag == "failure" else "errors"
            elif child.tag == "skipped":
                outcome = "xfailed" if child.get("type") == "pytest.xfail" else "skipped"
        per_file = counts.setdefault(path, dict.fromkeys(("passed", "failed", "errors",
                                                          "skipped", "xfailed"), 0))  # fmt: skip
        per_file[outcome] += 1
    return counts


def _can_create_in(folder):
    """Whether a folder can be made in ``folder`` (tried, then removed): --keep's check,
    before the export and the runs rather than after them."""
    try:
        tempfile.TemporaryDirectory(dir=folder).cleanup()
    except OSError:
        return False
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--tvm-tree", type=Path, help="a TVM checkout or unpacked tree")
    where.add_argument(
        "--tvm-git", nargs="?", const="", metavar="REPO", help="TVM at the base commit from REPO"
    )
    where.add_argument("--fake", action="store_true", help="a skeleton tree (no TVM source)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--expect-fixed", action="store_true", help="drop the bug xfails")
    mode.add_argument("--reference-fixes", action="store_true", help="... and install the fixes")
    parser.add_argument("--python", default=sys.executable, help="interpreter importing tvm")
    parser.add_argument("--whole-files", action="store_true", help="TVM's tests there too")
    parser.add_argument("--keep", type=Path, help="leave the exported tree in this folder")
    args = parser.parse_args(argv)
    if args.keep and not _can_create_in(args.keep.resolve().parent):
        print(
            f"tvm_tree_check: error: --keep {args.keep}: cannot write there (name a folder "
            "you can write)",
            file=sys.stderr,
        )
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="tvm-tree-check-"))
    try:
        return run(args, scratch)
    except CheckError as err:
        print(f"tvm_tree_check: error: {err}", file=sys.stderr)
        return 2
    finally:
        if args.keep:
            shutil.rmtree(args.keep, ignore_errors=True)
            shutil.move(str(scratch / "tvm"), args.keep)
        shutil.rmtree(scratch, ignore_errors=True)


def run(args, scratch):
    source_tree(args)  # a bad --tvm-tree is told before the probe (an `import tvm`, a second)
    python = os.path.abspath(shutil.which(args.python) or args.python)  # run from the tree
    probe = subprocess.run([python, "-c", "import tvm, pytest"], capture_output=True, check=False)
    if probe.returncode != 0:
        raise CheckError(f"{args.python} cannot import tvm and pytest")
    tree = make_tree(args, scratch)
    # --expect-fixed: the reports with a C++ patch (a patched build carries those only);
    # --reference-fixes: those with a reference fix. The others keep their strict xfails
    fixed = PATCHED if args.expect_fixed else REFERENCE_FIXED if args.reference_fixes else ()
    drop = [f"--drop-bug-xfails={','.join(fixed)}"] if fixed else []
    kept = [key for key in BUG_REPORTS if key not in fixed]
    if fixed:
        kept_text = ", ".join(kept) or "none"
        print(f"expected fixed: {', '.join(fixed)}; strict xfails kept: {kept_text}")
    export = [sys.executable, str(ROOT / "scripts" / "export_to_tvm.py"), "--tvm-root", str(tree),
              "--api-of", python]  # fmt: skip
    # --force: a patched checkout holds our tests already; re-exporting replaces them
    proc = subprocess.run([*export, "--force", *drop], capture_output=True, text=True, check=False)
    print(proc.stdout, end="")
    if proc.returncode != 0:
        raise CheckError(f"export failed (exit {proc.returncode}): {proc.stderr.strip()}")
    env = dict(os.environ)
    for var in ("TVM_REFERENCE_FIXES", "TVM_WRONG_FIX"):
        env.pop(var, None)
    if args.reference_fixes:
        site = [str(ROOT / "harness" / "child_site"), str(ROOT)]
        env["PYTHONPATH"] = os.pathsep.join([*site, *filter(None, [env.get("PYTHONPATH")])])
        env["TVM_REFERENCE_FIXES"] = ",".join(REFERENCE_FIXED)
    # one pytest process for every file (one `import tvm`), its results read per file from
    # the JUnit XML it writes
    files = [src.relative_to(ROOT) for src in our_files()]
    targets = []
    for src, rel in zip(our_files(), files):
        targets += [str(rel)] if args.whole_files else [f"{rel}::{t}" for t in our_tests(src)]
    junit = scratch / "junit.xml"
    # scripts/run_pytest.py is `python -m pytest` without -m's cost to TVMScript's parser;
    # hypothesis's plugin only costs time; --tb=native: Python's tracebacks, which pytest
    # builds in a tenth of the time of its own (one for every xfailed test, too)
    cmd = [python, str(ROOT / "scripts" / "run_pytest.py"), "-p", "no:cacheprovider", "-q",
           "-o", "addopts=", "-p", "no:hypothesispytest", "--tb=native",
           "-o", "junit_family=xunit2", f"--junitxml={junit}", "-rfE", *targets]  # fmt: skip
    proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    counts = _outcomes_per_file(junit) if junit.exists() else {}
    for rel in files:
        found = counts.get(str(rel))
        summary = ", ".join(f"{n} {what}" for what, n in found.items() if n) if found else None
        print(f"{rel}: {summary or 'no tests ran'}")
    for line in proc.stdout.splitlines():
        if line.startswith(("FAILED", "ERROR")):
            print(f"    {line}")
    if proc.returncode not in (0, 1) or not counts:
        print(proc.stdout.strip()[-2000:] or proc.stderr.strip()[-2000:])
    failed = proc.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
