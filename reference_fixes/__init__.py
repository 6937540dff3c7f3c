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
"""Python reference fixes for the bug reports (this repository only).

Each module fixes one report in-process, with exactly the semantics the upstream tests in
tests/python expect, and its docstring names the C++ change a maintainer would make:

* ``allocate_workspace``: relax.transform.AllocateWorkspace without dangling GlobalVars
  (apache/tvm#20479).
* ``host_scalar``: a host-level scalar cell of a device function reaches the kernel by
  value instead of being allocated on the device and written from the host.
* ``verify_memory``: VerifyMemory rejects host access to device memory inside tvm.compile.
* ``narrow_scalar``: SplitHostDevice passes a kernel scalar narrower than 32 bits (float16,
  bfloat16, int8, int16, uint8, uint16, bool) as a 32-bit value that every GPU runtime can
  pass, and the kernel narrows it back at its entry.
* ``printer_cell``: a one-element cell keeps its annotations and scope through print -> parse.
* ``split_host_device_inplace``, ``annotate_entry_func_inplace``: SplitHostDevice and
  AnnotateEntryFunc run on a copy of their input module instead of changing it in place.
* ``uint64_scalar``: the device runtimes pass a uint64 kernel scalar in the 64-bit slot (a
  runtime fix: TVM's OpenCL runtime built with patch 0007's ``pack_args.h``).
* ``printer_param_data``: a one-element buffer prints through the scalar shorthand only when
  its name was defined through the scalar syntax (a parameter prints ``A.data``, ``A[0]``).
* ``bfloat16_scalar``: a bfloat16 scalar on the host compiles, host code computing in float32
  on every target: BF16ComputeLegalize visits a bound value and keeps bfloat16 only where its
  bits are read, MakePackedAPI decodes a bfloat16 parameter as the FFI's float64 rounded to
  bfloat16 (NaN kept), BF16StorageLegalize holds bfloat16 scalars as their uint16 bits, and the
  pipelines run BF16ComputeLegalize again after MakePackedAPI.

``install(names)`` installs the named fixes and returns a callable that removes them.
"""

import importlib
import importlib.util
import sys
from pathlib import Path

from bug_reports import REFERENCE_FIXED

# every report but those of bug_reports.NO_REFERENCE_FIX
KNOWN = REFERENCE_FIXED
# the reference fixes written for apache/tvm-tirx too (through reference_fixes/_line.py);
# allocate_workspace is about relax, which that package does not have; uint64_scalar is a
# runtime of apache/tvm (that package's runtime API differs: the OpenCL runtime sources do
# not build against it)
ON_TVM_TIRX = (
    "host_scalar",
    "verify_memory",
    "narrow_scalar",
    "split_host_device_inplace",
    "annotate_entry_func_inplace",
    "lower_iket_inplace",
)


def opencl_runtime():
    """scripts/opencl_runtime.py as the module ``opencl_runtime``, loaded once per process by
    its path (scripts/ stays off sys.path): the root conftest, bugs/run_all.py,
    scripts/device_runs.py and the uint64 fix's runtime share it, so that the runtime a fix
    selects is the one loaded."""
    if "opencl_runtime" not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "scripts" / "opencl_runtime.py"
        spec = importlib.util.spec_from_file_location("opencl_runtime", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["opencl_runtime"] = module
        spec.loader.exec_module(module)
    return sys.modules["opencl_runtime"]


def available():
    """The reports whose reference fix works on the TVM line this process imports."""
    from reference_fixes._line import LINE

    return KNOWN if LINE == "tvm" else ON_TVM_TIRX


def install(names=KNOWN):
    """Install the reference fixes named in ``names``; return an uninstaller."""
    undo = []
    for name in names:
        if name not in KNOWN:
            raise ValueError(f"unknown reference fix {name!r}; known: {', '.join(KNOWN)}")
        if name not in available():
            raise ValueError(f"no reference fix {name!r} for this TVM line")
        module = importlib.import_module(f"{__name__}.{name}")
        undo.append(module.install())

    def uninstall():
        for func in reversed(undo):
            func()

    return uninstall
