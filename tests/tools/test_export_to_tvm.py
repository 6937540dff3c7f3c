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
"""Tests of scripts/export_to_tvm.py against fake TVM checkouts (this repository only)."""

import ast
import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "export_to_tvm.py"
UPSTREAM = sorted((ROOT / "tests" / "python").rglob("test_*.py"))
sys.path.insert(0, str(ROOT))
from bug_reports import report_of  # noqa: E402

RUFF_CONFIG = """
[tool.ruff]
line-length = 100
target-version = "py310"

[tool.ruff.lint]
select = ["E", "F", "I", "UP", "RUF"]
ignore = ["UP028", "UP030", "UP031", "RUF043", "RUF059"]

[tool.ruff.lint.isort]
known-first-party = ["tvm"]

[tool.ruff.format]
quote-style = "double"
"""


def make_checkout(tmp_path, spelling, ffi_launch=True):
    """A fake TVM checkout whose TVMScript defines the buffer annotation as `spelling` and
    knows T.call_ffi_kernel or not."""
    root = tmp_path / f"tvm-{spelling.lower()}-{ffi_launch}"
    entry = root / "python" / "tvm" / "tirx" / "script" / "parser" / "entry.py"
    entry.parent.mkdir(parents=True)
    (root / "python" / "tvm" / "__init__.py").write_text("")
    launch = "call_ffi_kernel = None\n" if ffi_launch else ""
    entry.write_text(f"{spelling} = BufferProxy()\n{launch}")
    (root / "tests" / "python").mkdir(parents=True)
    (root / "CMakeLists.txt").write_text("project(tvm C CXX)\n")
    (root / "pyproject.toml").write_text(RUFF_CONFIG)
    return root


def export(*args):
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_there_are_upstream_files_to_export():
    assert len(UPSTREAM) >= 5


@pytest.mark.parametrize("spelling", ["Buffer", "Tensor"])
def test_export_creates_every_file_in_the_checkout_spelling(tmp_path, spelling):
    root = make_checkout(tmp_path, spelling)
    rc, out, err = export("--tvm-root", root)
    assert rc == 0, out + err
    assert "lint: ruff" in out and "clean" in out
    other = "Tensor" if spelling == "Buffer" else "Buffer"
    for src in UPSTREAM:
        dest = root / src.relative_to(ROOT)
        text = dest.read_text()
        assert f"T.{other}(" not in text, dest
        if "T.Buffer(" in src.read_text():
            assert f"T.{spelling}(" in text, dest
        ast.parse(text)


THEIRS = """# TVM's own file
import pytest

import tvm
import tvm.testing


def test_theirs():
    assert tvm is not None


if __name__ == "__main__":
    tvm.testing.main()
"""


def _top_level(text):
    return [getattr(n, "name", None) for n in ast.parse(text).body]


def test_existing_file_gets_our_tests_merged(tmp_path):
    """TVM's file keeps its tests; ours go before its __main__ block, imports merged."""
    root = make_checkout(tmp_path, "Buffer")
    src = UPSTREAM[0]
    dest = root / src.relative_to(ROOT)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(THEIRS)
    rc, out, err = export("--tvm-root", root)
    assert rc == 0, out + err
    assert f"merge    {dest.relative_to(root)}" in out
    merged = dest.read_text()
    ours = [n for n in _top_level(src.read_text()) if n]
    names = _top_level(merged)
    assert "test_theirs" in names
    assert set(ours) <= set(names)
    assert isinstance(ast.parse(merged).body[-1], ast.If)  # __main__ stays last
    for node in ast.parse(src.read_text()).body:  # every import of ours is there
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                assert alias.asname or alias.name.split(".")[-1] in merged


def test_second_export_is_refused_unless_forced(tmp_path):
    root = make_checkout(tmp_path, "Buffer")
    dest = root / UPSTREAM[0].relative_to(ROOT)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(THEIRS)
    assert export("--tvm-root", root, "--no-lint")[0] == 0
    first = dest.read_text()
    rc, out, _ = export("--tvm-root", root, "--no-lint")
    assert rc == 1
    assert f"refused  {dest.relative_to(root)} (clash: " in out
    assert dest.read_text() == first
    rc, out, _ = export("--tvm-root", root, "--no-lint", "--force")
    assert rc == 0, out
    assert dest.read_text() == first


LAUNCHING = [s for s in UPSTREAM if "T.call_ffi_kernel(" in s.read_text()]


@pytest.mark.parametrize("src", LAUNCHING, ids=[s.name for s in LAUNCHING])
def test_launch_is_adapted_to_a_checkout_without_call_ffi_kernel(tmp_path, src):
    """TVM main of 2026-08 launches with T.call_packed and gives each public kernel a
    global_symbol: its name, unless the kernel names one itself; a private kernel has none."""
    root = make_checkout(tmp_path, "Buffer", ffi_launch=False)
    rc, out, err = export("--tvm-root", root, "--only", src.relative_to(ROOT))
    assert rc == 0, out + err
    text = (root / src.relative_to(ROOT)).read_text()
    assert "call_ffi_kernel" not in text and "launch_params=" not in text
    before = src.read_text()
    assert text.count("T.call_packed(") == before.count("T.call_packed(") + before.count(
        "T.call_ffi_kernel("
    )
    kernels = 0
    original = {n.name: n for n in ast.walk(ast.parse(before)) if isinstance(n, ast.FunctionDef)}
    for func in (n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef)):
        private = "private=True" in "".join(ast.unparse(d) for d in func.decorator_list)
        for stmt in func.body:
            attrs = ast.unparse(stmt).replace("'", '"')
            if attrs.startswith("T.func_attr(") and '"calling_conv": 2' in attrs:
                kernels += 1
                own = '"global_symbol"' in ast.unparse(original[func.name]).replace("'", '"')
                if private:
                    assert '"global_symbol"' not in attrs, func.name
                elif not own:
                    assert f'"global_symbol": "{func.name}"' in attrs, func.name
                else:
                    assert '"global_symbol"' in attrs, func.name
    assert kernels


@pytest.mark.parametrize("src", LAUNCHING[:1], ids=[s.name for s in LAUNCHING[:1]])
def test_api_of_an_interpreter_wins_over_the_checkout(tmp_path, src):
    """Run with one TVM inside a tree of another, the files follow the TVM that runs them."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from export_to_tvm import API_PROBE

    # what api_of(sys.executable) finds, asked here: its probe, run in this interpreter
    with contextlib.redirect_stdout(io.StringIO()) as probed:
        exec(API_PROBE, {})
    ffi_launch = json.loads(probed.getvalue())["ffi_launch"]
    texts = []
    for checkout_ffi, extra in [(ffi_launch, []), (not ffi_launch, ["--api-of", sys.executable])]:
        root = make_checkout(tmp_path / str(len(texts)), "Buffer", ffi_launch=checkout_ffi)
        rc, out, err = export("--tvm-root", root, "--only", src.relative_to(ROOT), *extra)
        assert rc == 0, out + err
        texts.append((root / src.relative_to(ROOT)).read_text())
    assert texts[0] == texts[1]


def test_api_of_a_python_without_tvm_is_a_one_line_error(tmp_path):
    root = make_checkout(tmp_path, "Buffer")
    rc, _, err = export("--tvm-root", root, "--api-of", "/nonexistent/python")
    assert rc == 2
    assert "--api-of" in err and err.count("\n") == 1


def test_dry_run_writes_nothing(tmp_path):
    root = make_checkout(tmp_path, "Buffer")
    rc, out, _ = export("--tvm-root", root, "--dry-run")
    assert rc == 0
    assert "(dry run)" in out
    assert not any((root / "tests" / "python").rglob("test_*.py"))


def test_drop_bug_xfails_leaves_no_xfail_and_lints_clean(tmp_path):
    """Every xfail in an upstream file belongs to a bug report (the root conftest enforces
    that), so none may be left once the bug marks are dropped."""
    root = make_checkout(tmp_path, "Buffer")
    rc, out, err = export("--tvm-root", root, "--drop-bug-xfails")
    assert rc == 0, out + err
    assert "clean" in out
    had_marks = 0
    for src in UPSTREAM:
        after = (root / src.relative_to(ROOT)).read_text()
        had_marks += "pytest.mark.xfail" in src.read_text()
        assert "xfail" not in after, src
        tree = ast.parse(after)
        loads = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        for node in tree.body:  # no reason text left behind without a user
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                text = str(node.value.value).lower()
                names = {t.id for t in node.targets if isinstance(t, ast.Name)}
                assert not (report_of(text) and not names & loads), src
    assert had_marks >= 5


def test_drop_bug_xfails_unwraps_a_param_left_with_its_value_only():
    """pytest.param(value, marks=BUG) becomes value (other arguments of a param stay), and a
    list that thereby equals a module-level list constant is written as its name."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        from export_to_tvm import drop_bug_xfails
    finally:
        sys.path.remove(str(SCRIPT.parent))
    text = (
        "import pytest\n\n"
        'BUG = pytest.mark.xfail(strict=True, raises=ValueError, reason="VerifyMemory")\n'
        'CASES = ["a", pytest.param("b", marks=BUG), pytest.param("c", marks=BUG, id="c1")]\n'
        'NAMES = ["a", "b"]\n'
        'BOTH = [["a", pytest.param("b", marks=BUG)], ["a"]]\n'
    )
    after = drop_bug_xfails(text)
    assert 'CASES = ["a", "b", pytest.param("c", id="c1")]' in after
    assert 'BOTH = [NAMES, ["a"]]' in after


@pytest.mark.parametrize(
    "make_root, message",
    [
        (lambda tmp: tmp / "missing", "is not a directory"),
        (lambda tmp: tmp, "is not a TVM checkout"),
    ],
)
def test_bad_root_is_a_one_line_error(tmp_path, make_root, message):
    rc, out, err = export("--tvm-root", make_root(tmp_path))
    assert rc == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_unknown_spelling_is_a_one_line_error(tmp_path):
    root = make_checkout(tmp_path, "Buffer")
    (root / "python" / "tvm" / "tirx" / "script" / "parser" / "entry.py").write_text("")
    rc, _, err = export("--tvm-root", root)
    assert rc == 2
    assert "cannot tell the TVMScript buffer spelling" in err
