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
"""Fixtures of the tools' tests (this repository only).

Most of these tests' time is child processes (a TVM import costs about a second each), and
the pytest process would only wait for them. A test module whose tests read independent
children defines

    def start_children(pool, tests, tmp_path_factory):
        return {name: pool.submit(...), ...}   # the children that ``tests`` read

At the start of the session every such module starts the children of its tests that this
session runs (``tests``: their names, without parameters), all in one pool; they run side by
side while the tests before theirs run, and a test reads its child's result from the
``children`` fixture ({name: future}), waiting for it if need be. A child may start while
any test runs: the tests here change neither the environment nor the working directory of
the pytest process (children inherit both).
"""

import concurrent.futures
import importlib.util
import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def side_by_side():
    """A pool that runs functions (each one child process, mostly) twice as many at a time as
    there are cores (a child also waits: on the disk, on git, or for another child, as the
    tirx line's runs wait for setup.sh); what has not started at the end is cancelled."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2 * (os.cpu_count() or 1))
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="session", autouse=True)
def started_children(request, side_by_side, tmp_path_factory):
    """{module: {name: future}}: what each module's start_children started for its tests
    that this session runs, at the start of the session."""
    tests = {}
    for item in request.session.items:
        module = getattr(item, "module", None)
        if hasattr(module, "start_children"):
            tests.setdefault(module, set()).add(getattr(item, "originalname", item.name))
    started = {}
    for module, names in tests.items():
        try:
            started[module] = module.start_children(side_by_side, names, tmp_path_factory)
        except Exception as err:  # that module's tests fail with it, the others run
            started[module] = err
    return started


@pytest.fixture(scope="module")
def children(request, started_children):
    """{name: future} of the children this module's start_children started."""
    started = started_children[request.module]
    if isinstance(started, Exception):
        raise started
    return started


@pytest.fixture(scope="session")
def reference_fixes_load():
    """Skip a test that loads the Python reference fixes (or the wrong fixes built on them)
    where they cannot load: they are written for the pinned wheel's API, and
    ``scripts/test.sh --expect-fixed`` runs the tools' tests against another TVM (a source
    build), as it leaves out tests/proof and the bugs' proof tests."""
    try:
        import harness.tvm_line  # noqa: F401
    except (ImportError, AttributeError) as err:
        pytest.skip(f"the reference fixes do not load on this TVM (written for the wheel): {err}")


@pytest.fixture(scope="session")
def wrong_fix_runner():
    """scripts/wrong_fixes.py as a module (scripts/ is no package)."""
    path = Path(__file__).resolve().parents[2] / "scripts" / "wrong_fixes.py"
    spec = importlib.util.spec_from_file_location("wrong_fix_runner", path)
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    return runner
