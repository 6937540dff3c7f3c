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
"""Lint gate for this repository: TVM's ruff configuration, plus the rules that make an
upstream test file mergeable into TVM as it is.

    python scripts/lint.py            # exit 0 clean, 1 with findings, 2 when it cannot run

Checks:
* ``ruff check`` and ``ruff format --check`` (configuration in pyproject.toml, which
  mirrors apache/tvm's) over the whole repository;
* every file under tests/python carries the Apache license header, ends with
  ``tvm.testing.main()`` and imports nothing but tvm, tvm_ffi, pytest, numpy and the standard
  library (in particular nothing from this repository);
* every Python file of this repository carries the Apache license header, and every one but
  the upstream test trees' (tests/python, tvm-tirx/tests/python: TVM's files open with none)
  opens with a module docstring saying what it is for.
"""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = ROOT / "tests" / "python"
UPSTREAM_TREES = (UPSTREAM, ROOT / "tvm-tirx" / "tests" / "python")
ALLOWED_TOP = {"tvm", "tvm_ffi", "pytest", "numpy"} | set(sys.stdlib_module_names)
HEADER = "Licensed to the Apache Software Foundation (ASF) under one"
SKIP_DIRS = {".venv", ".venv-tirx", ".git", "__pycache__", ".pytest_cache", ".ruff_cache", "build"}


def python_files():
    for path in sorted(ROOT.rglob("*.py")):
        if not SKIP_DIRS & set(path.relative_to(ROOT).parts):
            yield path


def upstream_problems(path, text):
    problems = []
    if "tvm.testing.main()" not in text:
        problems.append("no `tvm.testing.main()` entry point")
    try:
        tree = ast.parse(text)
    except SyntaxError as err:
        return [f"syntax error: {err}"]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""] if node.level == 0 else ["<relative import>"]
        else:
            continue
        for module in modules:
            if module.split(".")[0] not in ALLOWED_TOP:
                problems.append(f"line {node.lineno}: imports {module}, which TVM's tree lacks")
    return problems


def own_problems(text):
    """What a Python file of this repository's own (not an upstream test file) lacks."""
    try:
        tree = ast.parse(text)
    except SyntaxError as err:
        return [f"syntax error: {err}"]
    return [] if ast.get_docstring(tree) else ["no module docstring (what the module is for)"]


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if argv:
        print(f"lint: error: no arguments expected, got {' '.join(argv)}", file=sys.stderr)
        return 2
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists() and not shutil.which(ruff):
        print("lint: error: ruff not found (run scripts/setup.sh)", file=sys.stderr)
        return 2
    findings = []
    for path in python_files():
        text = path.read_text()
        rel = path.relative_to(ROOT)
        if HEADER not in "\n".join(text.splitlines()[:20]):
            findings.append(f"{rel}: no Apache license header")
        if UPSTREAM in path.parents and path.name.startswith("test_"):
            findings += [f"{rel}: {p}" for p in upstream_problems(path, text)]
        if not any(tree in path.parents for tree in UPSTREAM_TREES):
            findings += [f"{rel}: {p}" for p in own_problems(text)]
    for line in findings:
        print(line)
    failed = bool(findings)
    for args in (["check", "--no-cache"], ["format", "--check", "--no-cache"]):
        proc = subprocess.run([ruff, *args, str(ROOT)], cwd=ROOT, check=False)
        failed |= proc.returncode != 0
    print("lint: " + ("FAILED" if failed else "clean"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
