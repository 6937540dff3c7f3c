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
"""Tests of scripts/check_tvm.py, the "is my TVM affected?" report (this repository only)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_tvm.py"
BUGS = ("host_scalar", "allocate_workspace", "verify_memory", "narrow_scalar")


def check_tvm(*args, python_flags=()):
    proc = subprocess.run(
        [sys.executable, *python_flags, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture(scope="module")
def report():
    # One child process probes all four bugs (a few CUDA compiles: the slowest test here).
    rc, out, err = check_tvm("--json", "--check")
    assert "Traceback" not in err, err
    return rc, json.loads(out)


def test_every_bug_and_layer_is_reported(report):
    _, data = report
    assert data["tvm"]["version"]
    assert set(data["verdicts"]) == set(BUGS)
    for bug in BUGS:
        layers = [f for f in data["findings"] if f["bug"] == bug]
        assert len(layers) >= 2, bug
        for finding in layers:
            assert finding["status"] in ("present", "fixed", "untestable")
            assert finding["evidence"].strip() and "\n" not in finding["evidence"]


def test_verdicts_match_what_this_run_expects(request, report):
    """On the released TVM every bug reproduces and --check exits 1; with the fixes (the
    reference fixes reach the child process, or a patched TVM) none does and it exits 0."""
    rc, data = report
    fixed = request.config._tvm_bug_expect_fixed
    for bug in BUGS:
        if bug in fixed:
            assert data["verdicts"][bug].startswith("not affected"), (bug, data["findings"])
        else:
            assert data["verdicts"][bug] == "AFFECTED", (bug, data["findings"])
    assert rc == (0 if fixed >= set(BUGS) else 1)


def test_table_output_names_each_bug():
    rc, out, _ = check_tvm("--bug", "allocate_workspace")
    assert rc == 0
    assert "[allocate_workspace]" in out
    assert "commit:" in out


def test_no_tvm_is_a_one_line_error(tmp_path):
    # -S: no site-packages, so tvm cannot be imported (unless PYTHONPATH brings one)
    env_has_tvm = any(
        (Path(p) / "tvm" / "__init__.py").exists()
        for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
        if p
    )
    if env_has_tvm:
        pytest.skip("PYTHONPATH provides a TVM, so -S cannot hide it")
    rc, out, err = check_tvm(python_flags=("-S",))
    assert rc == 2
    assert err.startswith("check_tvm: error: cannot import tvm")
    assert len(err.strip().splitlines()) == 1
    assert out == ""


def test_narrow_scalar_row_has_a_codegen_and_a_gpu_layer(report):
    """The narrow kernel scalar row: the CPU codegen layer, and the GPU layer only on request."""
    _, data = report
    layers = {f["layer"]: f for f in data["findings"] if f["bug"] == "narrow_scalar"}
    assert list(layers) == ["codegen", "gpu run"]
    assert layers["codegen"]["status"] in ("present", "fixed")
    assert layers["gpu run"]["status"] == "untestable"
    assert "not requested" in layers["gpu run"]["evidence"]
