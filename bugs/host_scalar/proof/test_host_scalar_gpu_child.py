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
"""The host-level scalar cases on a GPU, each in a child process (this repository only).

On the released wheel the report's program segfaults when called: the host stores into
device memory. The upstream GPU test runs in-process (as TVM's GPU tests do), so on an
unfixed TVM it must not run at all; this file is its crash-isolated twin. Each case runs in
``python FILE --child run CASE DTYPE...``, which prints one JSON line per finished dtype, and:

* only the crash of the report (the child killed by SIGSEGV or SIGBUS) is the bug's
  exception, ``HostTouchedDeviceMemory``; any other failure of the child (an import error, a
  CUDA error such as an illegal address, a non-zero exit) is ``ChildFailed``, which no xfail
  accepts; wrong numbers are a plain assertion failure;
* the fixes under test reach the child: the root conftest puts harness/child_site on
  PYTHONPATH and sets TVM_REFERENCE_FIXES / TVM_WRONG_FIX, and a CPU test checks that a child
  compiles exactly what this process compiles, with the same passes installed.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import tvm
import tvm.testing

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # repository root, for `python FILE`
sys.path.insert(0, str(Path(__file__).resolve().parent))
import host_scalar_cases as cases

from harness import child_process

REASON = "host-level scalar cell is a device workspace that the host writes (SIGSEGV)"
PASSES = ("LowerTVMBuiltin", "SplitHostDevice")


class HostTouchedDeviceMemory(AssertionError):
    """The child died of the report's crash: a host access to device memory."""


def _installed_passes():
    """Where each pass the fixes replace comes from (TVM, a reference fix, a wrong fix)."""
    return {name: getattr(tvm.tirx.transform, name).__module__ for name in PASSES}


def _compile(case, dtype):
    lib = tvm.compile(cases.make(case, dtype), target="cuda")
    return lib, cases.kernel_signatures(lib.mod.imports[0].inspect_source())


def _child(mode, case, dtypes):
    """In the child: compile (and with mode ``run``, call on cuda(0)) ``case`` per dtype."""
    print(json.dumps({"env": child_process.fix_env(), "passes": _installed_passes()}), flush=True)
    for dtype in dtypes:
        lib, kernels = _compile(case, dtype)
        report = {"dtype": dtype, "kernels": kernels}
        if mode == "run":
            b, c = cases.run_on_cuda(lib, dtype)
            report.update(B=b.tolist(), C=c.tolist())
        print(json.dumps(report), flush=True)


def run_child(mode, case, dtypes):
    """([header, one report per dtype]) from a child process, or the exception of
    child_process.raise_for."""
    proc, reports = child_process.run([__file__, "--child", mode, case, *dtypes])
    done = [r["dtype"] for r in reports[1:]]
    detail = f"{case}, after {done}:\n{proc.stderr[-3000:]}"
    child_process.raise_for(proc.returncode, detail, HostTouchedDeviceMemory)
    return reports


def test_child_compiles_what_this_process_compiles():
    """A child process sees the fixes this session runs with, whichever they are."""
    header, *reports = run_child("compile", "reassigned", ["float32", "int64"])
    assert header == {"env": child_process.fix_env(), "passes": _installed_passes()}
    assert [r["kernels"] for r in reports] == [
        json.loads(json.dumps(_compile("reassigned", d)[1])) for d in ("float32", "int64")
    ]


def test_child_crash_is_told_apart(tmp_path):
    """A SIGSEGV is the report's crash; an ordinary failure of the child is not."""
    child_process.assert_crash_told_apart(tmp_path, HostTouchedDeviceMemory)


@pytest.mark.gpu
@pytest.mark.skipif(not tvm.testing.env.has_cuda(), reason="need cuda")
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            c,
            marks=pytest.mark.xfail(strict=True, raises=HostTouchedDeviceMemory, reason=REASON),
        )
        for c in cases.BUG_CASES
    ]
    + [c for c in cases.RUNNABLE if c not in cases.BUG_CASES],
)
def test_runs_on_cuda(case):
    _, *reports = run_child("run", case, cases.DTYPES)
    assert [r["dtype"] for r in reports] == cases.DTYPES
    for report in reports:
        dtype = report["dtype"]
        want_b, want_c = cases.expected(case, dtype)
        np.testing.assert_array_equal(np.array(report["B"], dtype=dtype), want_b)
        np.testing.assert_array_equal(np.array(report["C"], dtype=dtype), want_c)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], sys.argv[3], sys.argv[4:])
