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
"""The reports' device runs on OpenCL (pocl), every launch in a child process (this
repository only).

The rows of scripts/device_runs.py run in one child interpreter per session (the fixes of
this session reach it: harness/child_site), each call in a fork of its own, so that a
crash is a row's result. On the TVM as it is, a bug row must show its report's bug, as the
exception its xfail names:

* host_scalar: the fork killed by SIGSEGV or SIGBUS (the host stores into what
  TVMBackendAllocWorkspace(4, ...) returned), ``HostTouchedDeviceMemory``;
* narrow_scalar, uint64_scalar: the runtime's "Cannot handle <dtype> as device function
  argument" at the first call, ``KernelArgumentRefused``;
* verify_memory: the program compiles (whatever running it then does: a signal, wrong
  values), ``HostAccessNotRejected``.

With the fixes every row must give the right values, but the rows a fix rejects at compile
time (VerifyMemory's error); uint64's fix is a runtime (the OpenCL runtime built with patch
0007, bugs/uint64_scalar/reference_fix.py), which the child loads. Any other failure (another
signal, another launch error, wrong values where the bug is a crash) fails the test: no xfail
accepts it. Skipped, with the reason, where there is no OpenCL runtime plugin
(scripts/opencl_runtime.py) or no OpenCL device.
"""

import functools
import importlib.util
import os
import sys
from pathlib import Path

import pytest


def _device_runs():
    """scripts/device_runs.py, loaded by its path (scripts/ is no package, and stays off
    sys.path)."""
    path = Path(__file__).resolve().parents[2] / "scripts" / "device_runs.py"
    spec = importlib.util.spec_from_file_location("device_runs", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["device_runs"] = module
    spec.loader.exec_module(module)
    return module


device_runs = sys.modules.get("device_runs") or _device_runs()
# whether the root conftest had loaded TVM's OpenCL runtime when this module was imported
OPENCL_AT_IMPORT = device_runs.tvm.runtime.enabled("opencl")

REASONS = {
    "host_scalar": "host-level scalar cell is a device workspace that the host writes "
    "(SIGSEGV on OpenCL)",
    "narrow_scalar": "narrow kernel scalar parameter refused by the OpenCL runtime",
    "uint64_scalar": "uint64 kernel scalar refused by the OpenCL runtime at the first call",
    "verify_memory": "VerifyMemory silent: the host access to device memory compiles and runs",
}


class HostTouchedDeviceMemory(AssertionError):
    """The launch died of a signal: the host-scalar report's crash."""


class KernelArgumentRefused(AssertionError):
    """The runtime cannot pass a kernel scalar parameter of this dtype."""


class HostAccessNotRejected(AssertionError):
    """A host access to device memory compiled (VerifyMemory silent)."""


@functools.cache
def _device():
    """(description, extensions) of the OpenCL device, or (None, why there is none)."""
    return device_runs.device_info()


@functools.cache
def _session_runs():
    """(header, {row id: result}) of one child running every row this device can."""
    _, extensions = _device()
    return device_runs.run([r[0] for r in device_runs.rows(extensions)])


def _needs_device():
    description, extensions = _device()
    if description is None:
        pytest.skip(f"no OpenCL device: {extensions}")
    return extensions


def _param(row):
    row_id, bug, _, dtype, kind = row
    marks = []
    if kind == "bug":
        raises = {
            "host_scalar": HostTouchedDeviceMemory,
            "narrow_scalar": KernelArgumentRefused,
            "uint64_scalar": KernelArgumentRefused,
            "verify_memory": HostAccessNotRejected,
        }[bug]
        marks.append(pytest.mark.xfail(strict=True, raises=raises, reason=REASONS[bug]))
    return pytest.param(row, marks=marks, id=row_id)


def check(row, result):
    """Raise the exception of the row's bug, or fail, unless ``result`` is the right one."""
    _, bug, _, _, _ = row
    outcome, detail = result["outcome"], result.get("detail", "")
    if bug == "verify_memory":  # the right result is the compile-time rejection
        if outcome != "compile error":
            raise HostAccessNotRejected(f"compiled; run: {device_runs.cell(result)}")
        assert device_runs.VERIFIER_TEXT in detail, detail
        return
    if outcome == "signal":
        raise HostTouchedDeviceMemory(f"the launch died of {detail}")
    if outcome == "error" and device_runs.REFUSED in detail:
        raise KernelArgumentRefused(detail)
    assert outcome == "right", device_runs.cell(result)


@pytest.mark.parametrize("row", [_param(r) for r in device_runs.rows()])
def test_device_run(row):
    extensions = _needs_device()
    if device_runs.NEEDS.get(row[3], "") not in (*extensions, ""):
        pytest.skip(f"the OpenCL device has no {device_runs.NEEDS[row[3]]}")
    _, results = _session_runs()
    check(row, results[row[0]])


def test_device_runs_see_the_fixes_of_this_session():
    """The child that runs the rows installs the fixes this session runs with."""
    _needs_device()
    header, _ = _session_runs()
    env = {k: os.environ.get(k, "") for k in ("TVM_REFERENCE_FIXES", "TVM_WRONG_FIX")}
    assert header == {"env": env, "plugin": None}


def test_root_conftest_loads_the_opencl_runtime():
    """Where the device runs can run, TVM's OpenCL runtime was loaded before the test modules
    were imported, so that TVM's own gate (tvm.testing.env.has_opencl) sees the device."""
    import tvm.testing

    _needs_device()
    assert OPENCL_AT_IMPORT
    assert tvm.testing.env.has_opencl()


def test_check_tells_outcomes_apart():
    """Each bug's outcome raises that bug's exception; anything else is a plain failure."""
    rows = {r[0]: r for r in device_runs.rows()}
    cases = [
        ("host_scalar:cell:float32", {"outcome": "signal", "detail": "SIGSEGV"},
         HostTouchedDeviceMemory),
        ("host_scalar:cell:float32", {"outcome": "wrong", "values": [[1]], "expected": [[2]]},
         AssertionError),
        ("narrow_scalar:param:int8", {"outcome": "error", "detail": "Cannot handle int8 as "
         "device function argument"}, KernelArgumentRefused),
        ("narrow_scalar:param:int8", {"outcome": "error", "detail": "CL_OUT_OF_RESOURCES"},
         AssertionError),
        ("verify_memory:unbound:float32", {"outcome": "right", "values": [[1]]},
         HostAccessNotRejected),
        ("uint64_scalar:param:uint64", {"outcome": "error", "detail": "Cannot handle uint64 as "
         "device function argument"}, KernelArgumentRefused),
        ("uint64_scalar:param:uint64", {"outcome": "wrong", "values": [[3]],
         "expected": [[2**40 + 3]]}, AssertionError),
    ]  # fmt: skip
    for row_id, result, exception in cases:
        with pytest.raises(exception) as info:
            check(rows[row_id], result)
        bug_exceptions = (HostTouchedDeviceMemory, KernelArgumentRefused, HostAccessNotRejected)
        assert exception is not AssertionError or not isinstance(info.value, bug_exceptions)
    check(rows["host_scalar:cell:float32"], {"outcome": "right", "values": [[1]]})
