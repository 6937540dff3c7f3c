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
"""pytest plugin of scripts/mutants.py: run one mutant of a reference fix as a wrong fix.

    pytest -p mutants.plugin --mutant-source=FILE [--mutant-timeout=SECONDS] \
        --wrong-fix=<report>:mutant ...

Before the root conftest reads ``--wrong-fix``, it makes wrong_fixes take ``<report>:mutant``
for the mutant in FILE (mutants.accept_in_wrong_fixes), so that the conftest installs it as it
installs any wrong fix: the report's bug tests must pass, other reports' bug xfails are not
strict. The child processes the tests start install it too: this package's _site comes
first on their PYTHONPATH. ``--mutant-timeout`` ends the session with exit code
TIMEOUT_EXIT after that many seconds (a mutant may loop forever), a line on stderr saying so;
where the loop never returns to Python (inside TVM's C++), the alarm cannot act, and the
kernel ends the session once its CPU time passes the same limit by CPU_GRACE seconds
(RLIMIT_CPU: exit by SIGXCPU, mutants.CPU_LIMIT_EXIT).
"""

import math
import os
import resource
import signal
import sys

import pytest

import mutants

TIMEOUT_EXIT = mutants.TIMEOUT_EXIT
# CPU seconds past --mutant-timeout before the kernel ends a session the alarm could not
CPU_GRACE = 2
SITE = mutants.HERE / "_site"


def pytest_addoption(parser):
    group = parser.getgroup("mutants (scripts/mutants.py)")
    group.addoption(
        "--mutant-source",
        metavar="FILE",
        default=None,
        help="the mutant to install as --wrong-fix=<report>:mutant",
    )
    group.addoption(
        "--mutant-timeout",
        metavar="SECONDS",
        type=float,
        default=None,
        help=f"end the session with exit code {TIMEOUT_EXIT} after this long",
    )


def _timed_out(config, seconds):
    def handler(_signum, _frame):
        capture = config.pluginmanager.getplugin("capturemanager")
        if capture is not None:  # the line goes to the session's real stderr
            capture.stop_global_capturing()
        sys.stderr.write(f"\nmutant timed out after {seconds:g} s\n")
        sys.stderr.flush()
        os._exit(TIMEOUT_EXIT)

    return handler


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    source = config.getoption("--mutant-source")
    if source:
        os.environ[mutants.SOURCE_ENV] = os.path.abspath(source)
        mutants.accept_in_wrong_fixes()
    seconds = config.getoption("--mutant-timeout")
    if seconds:
        signal.signal(signal.SIGALRM, _timed_out(config, seconds))
        signal.alarm(max(1, round(seconds)))
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        cpu = math.ceil(seconds) + CPU_GRACE
        if hard != resource.RLIM_INFINITY:
            cpu = min(cpu, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))


def pytest_sessionstart(session):
    # after the root conftest's pytest_configure has put harness/child_site first
    if session.config.getoption("--mutant-source"):
        paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        os.environ["PYTHONPATH"] = os.pathsep.join([str(SITE), *paths, str(mutants.ROOT)])
