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
"""The narrow kernel scalar cases on a GPU, in child processes (this repository only).

On the released wheel a kernel with a scalar parameter narrower than 32 bits compiles, and
the CUDA runtime refuses it when the kernel is first fetched ("Cannot handle float16 as
device function argument", src/runtime/pack_args.h). Every case of narrow_scalar_cases.py
but bfloat16 (its host scalars do not compile) runs in ``python FILE --child MODE SPELLING
DTYPE...``, which prints one JSON line per dtype, the C it computed or the error it raised:

* that refusal is the bug's exception, ``KernelArgumentRefused``;
* a ``cell`` case also needs the host-scalar fix: without it the host writes device memory
  and the child dies of SIGSEGV or SIGBUS, ``HostTouchedDeviceMemory`` (each cell case runs
  in a child of its own, so that one crash hides no other case);
* any other failure (an import error, a CUDA error, another exception) is ``ChildFailed``,
  which no xfail accepts; wrong numbers are a plain assertion failure;
* the fixes under test reach the child (harness/child_site), which a CPU test checks.
"""

import functools
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import tvm
import tvm.testing

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # repository root, for `python FILE`
sys.path.insert(0, str(Path(__file__).resolve().parent))
import narrow_scalar_cases as cases

from harness import child_process
from harness.child_process import ChildFailed

NARROW_REASON = "narrow kernel scalar parameter refused by the CUDA runtime"
HOST_SCALAR_REASON = "host-level scalar cell is a device workspace that the host writes"
REFUSED = "as device function argument"
# bfloat16 host scalars compile with their own fix only (its own runs: test_bfloat16_scalar.py)
RUN_DTYPES = [d for d in cases.DTYPES if d != "bfloat16"]


class KernelArgumentRefused(AssertionError):
    """The runtime cannot pass a kernel scalar parameter of this dtype."""


class HostTouchedDeviceMemory(AssertionError):
    """The child died of the host-scalar report's crash."""


def _child(mode, spelling, dtypes):
    print(json.dumps({"env": child_process.fix_env()}), flush=True)
    for dtype in dtypes:
        lib = tvm.compile(cases.make(spelling, dtype), target="cuda")
        report = {
            "dtype": dtype,
            "params": cases.kernel_params(lib.mod.imports[0].inspect_source()),
        }
        if mode == "run":
            try:
                report["C"] = cases.run_on_cuda(lib, dtype).tolist()
            except Exception as err:  # reported per dtype; the parent tells them apart
                report["error"] = f"{type(err).__name__}: {str(err).strip()[-1000:]}"
        print(json.dumps(report), flush=True)


@functools.cache
def run_child(mode, spelling, dtypes):
    """{dtype: report} from a child process, or HostTouchedDeviceMemory / ChildFailed."""
    proc, reports = child_process.run([__file__, "--child", mode, spelling, *dtypes])
    detail = f"{spelling} {list(dtypes)}, after {[r['dtype'] for r in reports[1:]]}"
    child_process.raise_for(
        proc.returncode, f"{detail}:\n{proc.stderr[-3000:]}", HostTouchedDeviceMemory
    )
    return reports[0], {r["dtype"]: r for r in reports[1:]}


def test_child_compiles_what_this_process_compiles():
    """A child process sees the fixes this session runs with, whichever they are."""
    header, reports = run_child("compile", "let", ("float16", "int8", "float32"))
    assert header == {"env": child_process.fix_env()}
    for dtype, report in reports.items():
        lib = tvm.compile(cases.make("let", dtype), target="cuda")
        want = cases.kernel_params(lib.mod.imports[0].inspect_source())
        assert report["params"] == [list(p) for p in want]


def _case(spelling, dtype):
    marks = []
    if spelling == "cell":  # evaluated first: without the host-scalar fix the child crashes
        marks.append(
            pytest.mark.xfail(
                strict=True, raises=HostTouchedDeviceMemory, reason=HOST_SCALAR_REASON
            )
        )
    if dtype in cases.NARROW:
        marks.append(
            pytest.mark.xfail(strict=True, raises=KernelArgumentRefused, reason=NARROW_REASON)
        )
    return pytest.param(spelling, dtype, marks=marks, id=f"{spelling}-{dtype}")


@pytest.mark.gpu
@pytest.mark.skipif(not tvm.testing.env.has_cuda(), reason="need cuda")
@pytest.mark.parametrize(
    "spelling, dtype", [_case(s, d) for s in cases.SPELLINGS for d in RUN_DTYPES]
)
def test_runs_on_cuda(spelling, dtype):
    # one child per cell case (a crash takes the whole child), one per spelling otherwise
    dtypes = (dtype,) if spelling == "cell" else tuple(RUN_DTYPES)
    _, reports = run_child("run", spelling, dtypes)
    report = reports[dtype]
    if "error" in report:
        if REFUSED in report["error"]:
            raise KernelArgumentRefused(report["error"])
        raise ChildFailed(report["error"])
    want = cases.expected(spelling, dtype)
    np.testing.assert_array_equal(np.array(report["C"], dtype=dtype), want)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], sys.argv[3], sys.argv[4:])
