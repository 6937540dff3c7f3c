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

from bug_reports import BUG_REPORTS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bugs"))
from probe_common import facts

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_tvm.py"
BUGS = tuple(BUG_REPORTS)  # the registry's reports whose folder is here


# the layers each report's probe reports, in order (its probe.toml's layers)
LAYERS = {key: tuple(facts(key)["layers"]) for key in BUGS}
# the tvm_tirx line: the reports probed there (their probe_tirx.py), what each finds on the
# pinned package (its probe.toml's on_pinned), and the reports not probed there, whose
# probe.toml states why: outside the package (outside, a verdict that says so) or not probed
TIRX_PROBED = tuple(key for key in BUGS if (ROOT / "bugs" / key / "probe_tirx.py").is_file())
TIRX_PINNED = {key: facts(key)["tvm_tirx"]["on_pinned"] for key in TIRX_PROBED}
TIRX_NOT_PROBED = tuple(key for key in BUGS if "not_probed" in facts(key)["tvm_tirx"])
TIRX_OUTSIDE = tuple(key for key in BUGS if "outside" in facts(key)["tvm_tirx"])


def check_tvm(*args, python_flags=()):
    proc = subprocess.run(
        [sys.executable, *python_flags, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


# the children each test reads
READS = {
    "test_every_bug_and_layer_is_reported": ["report"],
    "test_verdicts_match_what_this_run_expects": ["report"],
    "test_narrow_scalar_row_has_a_codegen_and_a_gpu_layer": ["report"],
    "test_table_output_names_each_bug": ["table"],
    "test_run_gpu_runs_on_opencl_and_names_the_device": ["opencl"],
    "test_tirx_table_reports_three_bugs_affected_and_check_exits_1": ["tirx check"],
    "test_tirx_json_names_the_line_and_each_layer": ["tirx json"],
    "test_tirx_allocate_workspace_alone_is_outside_and_exits_0": ["tirx allocate_workspace"],
    "test_neither_tvm_nor_tvm_tirx_is_a_one_line_error": ["tirx python"],
    "test_tirx_probe_crash_or_missing_api_is_untestable": ["tirx probe crash"],
    "test_report_sh_tirx_and_a_tirx_only_tvm_python": ["report.sh --tirx", "report.sh tirx python"],
}


def start_children(pool, tests, tmp_path_factory):
    """The children in READS that ``tests`` read, started in ``pool`` (tests/tools/conftest.py):
    this TVM's runs (rc, stdout, stderr); scripts/setup.sh --tirx ("tirx python": the tirx
    line's interpreter); and the tirx line's runs, which start once it is done."""
    wanted = {child for test in tests for child in READS.get(test, ())}
    futures = {}
    # One child process probes every bug (a few CUDA compiles: the slowest run here).
    for name, args in (
        ("report", ["--json", "--check"]),
        ("table", ["--bug", "allocate_workspace"]),
        (
            "opencl",
            ["--json", "--run-gpu=opencl", "--bug", "uint64_scalar"],
        ),
    ):
        if name in wanted:
            futures[name] = pool.submit(check_tvm, *args)
    if wanted - set(futures):
        python = futures["tirx python"] = pool.submit(setup_tirx)
        for name in TIRX_RUNS:  # the longest first
            if name in wanted:
                futures[name] = pool.submit(run_tirx_once_set_up, name, python)
    return futures


@pytest.fixture(scope="module")
def report(children):
    rc, out, err = children["report"].result()
    assert "Traceback" not in err, err
    return rc, json.loads(out)


def test_every_bug_and_layer_is_reported(report):
    _, data = report
    assert data["tvm"]["version"]
    assert set(data["verdicts"]) == set(BUGS)
    for bug in BUGS:
        layers = [f for f in data["findings"] if f["bug"] == bug]
        assert tuple(f["layer"] for f in layers) == LAYERS[bug], bug
        for finding in layers:
            assert finding["status"] in ("present", "fixed", "untestable")
            assert finding["evidence"].strip() and "\n" not in finding["evidence"]


@pytest.mark.both_ways
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


def test_table_output_names_each_bug(children):
    rc, out, _ = children["table"].result()
    assert rc == 0
    assert "[allocate_workspace]" in out
    assert "commit:" in out


@pytest.mark.both_ways
def test_run_gpu_runs_on_opencl_and_names_the_device(request, children):
    """--run-gpu=opencl: the gpu run layers ran on the OpenCL device, which their evidence
    names; the bug shows on the TVM as it is and not with the fixes (skipped, with the
    reason, where there is no OpenCL device)."""
    rc, out, err = children["opencl"].result()
    assert rc == 0, err
    layers = {f["bug"]: f for f in json.loads(out)["findings"] if f["layer"] == "gpu run"}
    assert set(layers) == {"uint64_scalar"}
    if "no OpenCL" in layers["uint64_scalar"]["evidence"]:
        pytest.skip(layers["uint64_scalar"]["evidence"])
    fixed = request.config._tvm_bug_expect_fixed
    for bug, finding in layers.items():
        assert finding["evidence"].startswith("on OpenCL "), finding
        assert finding["status"] == ("fixed" if bug in fixed else "present"), finding


def test_run_gpu_names_a_device_or_is_a_usage_error():
    """--run-gpu takes auto, cuda or opencl; anything else is a usage error (exit 2)."""
    rc, out, err = check_tvm("--run-gpu=metal")
    assert rc == 2 and out == ""
    assert "invalid choice: 'metal'" in err.strip().splitlines()[-1]


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


# --------------------------------------------------------------------------------------------
# The extracted TIRx package (apache-tvm-tirx, module tvm_tirx): .venv-tirx from
# `scripts/setup.sh --tirx` (a stamp check once it exists). Its expectations do not depend on
# --reference-fixes / --expect-fixed: those fix this repository's TVM, not the pinned package.


def _tirx_env():
    """The environment without what would bring another TVM into the tirx interpreter."""
    env = dict(os.environ)
    for name in ("TVM_PYTHON", "PYTHONPATH", "TVM_LIBRARY_PATH"):
        env.pop(name, None)
    return env


def setup_tirx():
    """scripts/setup.sh --tirx: the tirx line's interpreter."""
    proc = subprocess.run(
        [str(ROOT / "scripts" / "setup.sh"), "--tirx"],
        capture_output=True,
        text=True,
        env=_tirx_env(),
        check=False,
    )
    assert proc.returncode == 0, f"scripts/setup.sh --tirx failed:\n{proc.stderr}"
    python = proc.stdout.strip().splitlines()[-1]
    assert python.endswith(".venv-tirx/bin/python"), python
    return python


@pytest.fixture(scope="module")
def tirx_python(children):
    return children["tirx python"].result()


def run_tirx(python, *args, env=None):
    proc = subprocess.run(
        [python, *args], capture_output=True, text=True, env=env or _tirx_env(), check=False
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


# test_tirx_probe_crash_or_missing_api_is_untestable's child
TIRX_PROBE_CRASH = f"""
import json, sys
sys.path.insert(0, {str(ROOT / "scripts")!r})
import check_tvm, probe_tirx_common as common
def probe(key):
    return check_tvm.load_probe(key, "tvm_tirx").probe
common.SCRIPT_API += ("launch_thread_v9",)  # a package without T.launch_thread_v9
gap = probe("host_scalar")() + probe("narrow_scalar")()
common.SCRIPT_API = common.SCRIPT_API[:-1]
def boom(func):
    raise RuntimeError("no codegen here\\nsecond line")
common.compile_cuda = boom
crash = probe("narrow_scalar")() + probe("verify_memory")()
print(json.dumps({{"crash": crash, "gap": gap}}))
"""


def tirx_command(name, python):
    """The command line and environment (None: _tirx_env()) of the tirx line's run ``name``."""
    report_sh = str(ROOT / "scripts" / "report.sh")
    return {
        "report.sh tirx python": (
            [report_sh, "--check", "--bug", "verify_memory"],
            {**_tirx_env(), "TVM_PYTHON": python},
        ),
        "report.sh --tirx": ([report_sh, "--tirx", "--check", "--bug", "narrow_scalar"], None),
        "tirx check": ([python, str(SCRIPT), "--check"], None),
        "tirx json": ([python, str(SCRIPT), "--json"], None),
        "tirx allocate_workspace": (
            [python, str(SCRIPT), "--check", "--bug", "allocate_workspace"],
            None,
        ),
        "tirx probe crash": ([python, "-c", TIRX_PROBE_CRASH], None),
    }[name]


# the tirx line's runs, the longest first
TIRX_RUNS = [
    "report.sh tirx python",
    "report.sh --tirx",
    "tirx check",
    "tirx json",
    "tirx allocate_workspace",
    "tirx probe crash",
]


def run_tirx_once_set_up(name, python):
    """The tirx line's run ``name`` once ``python`` (setup_tirx's future) has its result."""
    args, env = tirx_command(name, python.result())
    return run_tirx(*args, env=env)


def test_tirx_table_reports_three_bugs_affected_and_check_exits_1(children):
    rc, out, _ = children["tirx check"].result()
    assert rc == 1
    header = out.splitlines()[0]
    assert header.startswith("TVM TIRx 0.1.0a4  (tvm_tirx, "), header
    verdicts = dict(x.split(": ", 1) for x in out.strip().split("\n\n")[-1].splitlines())
    expected = {
        key: "AFFECTED" if "present" in pinned.values() else "not affected"
        for key, pinned in TIRX_PINNED.items()
    }
    expected.update({key: "not applicable (outside tvm_tirx: no relax)" for key in TIRX_OUTSIDE})
    expected.update({key: "not probed on tvm_tirx (the reason above)" for key in TIRX_NOT_PROBED})
    assert verdicts == expected
    assert "outside this package: relax (AllocateWorkspace) is not in tvm_tirx" in out
    assert "c_ptr" in out  # the kernel signature is the host_scalar evidence


def test_tirx_json_names_the_line_and_each_layer(children):
    rc, out, _ = children["tirx json"].result()
    assert rc == 0
    data = json.loads(out)
    assert data["line"] == data["tvm"]["line"] == "tvm_tirx"
    assert data["tvm"]["version"] == "0.1.0a4"
    assert set(data["verdicts"]) == set(BUGS)
    assert set(data["not_applicable"]) == {*TIRX_OUTSIDE, *TIRX_NOT_PROBED}
    layers = {(f["bug"], f["layer"]): f["status"] for f in data["findings"]}
    assert layers == {
        (key, layer): status
        for key, pinned in TIRX_PINNED.items()
        for layer, status in pinned.items()
    }
    for finding in data["findings"]:
        assert finding["evidence"].strip() and "\n" not in finding["evidence"]


def test_tirx_allocate_workspace_alone_is_outside_and_exits_0(children):
    rc, out, _ = children["tirx allocate_workspace"].result()
    assert rc == 0
    assert "allocate_workspace: not applicable (outside tvm_tirx: no relax)" in out
    assert "PRESENT" not in out and "FIXED" not in out


def test_no_importable_tvm_is_bisect_skip_under_check(tirx_python):
    """--check where no TVM imports exits 125, which ``git bisect run`` skips (2 is "bad")."""
    rc, out, err = run_tirx(tirx_python, "-I", "-S", str(SCRIPT), "--check")
    assert rc == 125
    assert out == ""
    assert err.startswith("check_tvm: error: cannot import tvm (")


def test_neither_tvm_nor_tvm_tirx_is_a_one_line_error(tirx_python):
    # -I -S: no site-packages and no PYTHONPATH, so neither package can be imported
    rc, out, err = run_tirx(tirx_python, "-I", "-S", str(SCRIPT))
    assert rc == 2
    assert out == ""
    assert err.startswith("check_tvm: error: cannot import tvm (")
    assert "nor tvm_tirx (" in err
    assert len(err.strip().splitlines()) == 1


def test_tirx_probe_crash_or_missing_api_is_untestable(children):
    """A layer that raises gives "cannot tell" with the error's first line; a package that
    lacks a probe's API gives untestable rows naming what is missing, never a verdict."""
    rc, out, _ = children["tirx probe crash"].result()
    assert rc == 0
    data = json.loads(out)
    codegen, compile_ = data["crash"][0], data["crash"][3]
    for row in (codegen, compile_):
        assert row["status"] == "untestable", row
        assert "no codegen here" in row["evidence"] and "second line" not in row["evidence"]
    gap = [r for r in data["gap"] if r["layer"] != "gpu run"]  # that one: not requested
    assert [r["layer"] for r in gap] == ["codegen", "host IR", "codegen"]
    for row in gap:
        assert row["status"] == "untestable", row
        assert row["evidence"] == "this TIRx lacks T.launch_thread_v9", row


def test_report_sh_tirx_and_a_tirx_only_tvm_python(children):
    rc, out, _ = children["report.sh --tirx"].result()
    assert rc == 1
    assert out.startswith("TVM TIRx ") and "narrow_scalar: AFFECTED" in out
    # TVM_PYTHON: the tirx interpreter
    rc, out, _ = children["report.sh tirx python"].result()
    assert rc == 1
    assert out.startswith("TVM TIRx ") and "verify_memory: AFFECTED" in out
