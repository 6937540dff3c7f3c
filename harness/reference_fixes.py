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
import types
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


def install_source(report, source, module="bugs.{}.reference_fix"):
    """Make ``source`` (a variant of a reference fix's text) the module ``module`` (``{}``:
    ``report``) of this process and run its ``install()``; return an uninstaller, which
    restores the module that was there. Nothing on disk changes."""
    name = module.format(report)
    package, _, attr = name.rpartition(".")
    __import__(package)
    pkg = sys.modules[package]
    # bugs.<key> is a namespace package (no __init__.py): its folder is its __path__
    folder = Path(pkg.__file__).parent if pkg.__file__ else Path(next(iter(pkg.__path__)))
    path = folder.resolve() / f"{attr}.py"
    variant = types.ModuleType(name)
    variant.__file__ = str(path)
    variant.__package__ = package
    variant.__spec__ = importlib.util.spec_from_file_location(name, path)
    saved = sys.modules.get(name)
    sys.modules[name] = variant
    setattr(pkg, attr, variant)
    try:
        exec(compile(source, str(path), "exec"), variant.__dict__)
        undo = variant.install()
    except BaseException:
        _restore(pkg, name, attr, saved)
        raise

    def uninstall():
        undo()
        _restore(pkg, name, attr, saved)

    return uninstall


def _restore(pkg, name, attr, saved):
    if saved is None:
        sys.modules.pop(name, None)
        if hasattr(pkg, attr):
            delattr(pkg, attr)
    else:
        sys.modules[name] = saved
        setattr(pkg, attr, saved)
