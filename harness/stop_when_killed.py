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
"""pytest plugin of scripts/wrong_fixes.py: end a wrong-fix run once its verdict is known.

    pytest -p harness.stop_when_killed --until-killed=PREFIX ...

A wrong fix is killed when at least MIN_KILLERS tests fail, at least one of them an upstream
test (its node id starts with PREFIX). The session stops after the test that makes that
true. Any order of the same tests reaches that point or, run to the end, the same failures,
so the verdict does not depend on the order (a plugin that reorders or shuffles the tests
changes which failing tests are named, not whether the wrong fix is killed).
"""

MIN_KILLERS = 2


def killed(names, upstream_prefix):
    """Whether the failing tests ``names`` (node ids) kill a wrong fix."""
    return len(names) >= MIN_KILLERS and any(n.startswith(upstream_prefix) for n in names)


def pytest_addoption(parser):
    parser.addoption(
        "--until-killed",
        metavar="PREFIX",
        default=None,
        help="stop once the failing tests kill the wrong fix (upstream tests: node ids "
        "starting with PREFIX)",
    )


def pytest_configure(config):
    prefix = config.getoption("--until-killed")
    if prefix:
        config.pluginmanager.register(_StopWhenKilled(prefix), "until-killed")


class _StopWhenKilled:
    def __init__(self, prefix):
        self.prefix = prefix
        self.failed = []
        self.session = None

    def pytest_sessionstart(self, session):
        self.session = session

    def pytest_runtest_logreport(self, report):
        # a test fails in its call (setup and teardown failures are errors: they end the
        # runner's run as a RunError, not as a kill)
        if report.when == "call" and report.failed:
            self.failed.append(report.nodeid)
            if killed(self.failed, self.prefix):
                # as --maxfail does: the session ends failed (exit code 1) after this test
                self.session.shouldfail = f"killed by {len(self.failed)} failing tests"
