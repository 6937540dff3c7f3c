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
"""Installs the Python reference fixes of the bug reports (this repository only).

Each bug's fix is bugs/<report>/reference_fix.py: it fixes that report in-process, with
exactly the semantics the upstream tests expect, its docstring names the C++ change a
maintainer would make, and its ``install()`` returns a callable that removes it.

``install(names)`` installs the named fixes and returns a callable that removes them;
``available()`` names the fixes that work on the TVM line this process imports.
"""

import importlib
import importlib.util
import sys
from pathlib import Path

from bug_reports import ON_TVM_TIRX, REFERENCE_FIXED

# every report but those of bug_reports.NO_REFERENCE_FIX; ON_TVM_TIRX: the reference fixes
# written for apache/tvm-tirx too
KNOWN = REFERENCE_FIXED


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
    from harness.tvm_line import LINE

    return KNOWN if LINE == "tvm" else ON_TVM_TIRX


def install(names=KNOWN):
    """Install the reference fixes named in ``names``; return an uninstaller."""
    undo = []
    for name in names:
        if name not in KNOWN:
            raise ValueError(f"unknown reference fix {name!r}; known: {', '.join(KNOWN)}")
        if name not in available():
            raise ValueError(f"no reference fix {name!r} for this TVM line")
        module = importlib.import_module(f"bugs.{name}.reference_fix")
        undo.append(module.install())

    def uninstall():
        for func in reversed(undo):
            func()

    return uninstall
