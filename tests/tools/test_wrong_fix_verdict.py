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
"""The wrong-fix runner's verdict (harness/stop_when_killed.py) and the pytest server that
runs its sessions (harness/pytest_server.py)."""

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from harness import stop_when_killed as until_killed  # noqa: E402

UP = "tests/python/"
# (node id, failed) of a made-up run: two upstream failures, a proof failure, two passes
OUTCOMES = [
    ("tests/python/a.py::t1", True),
    ("tests/python/a.py::t2", False),
    ("tests/proof/b.py::t1", True),
    ("tests/proof/b.py::t2", False),
    ("tests/python/c.py::t1", True),
]


def _verdict(outcomes, prefix):
    """Feed reports in this order until the plugin stops the session; the verdict."""
    stopper = until_killed._StopWhenKilled(prefix)
    stopper.pytest_sessionstart(SimpleNamespace(shouldfail=False))
    for nodeid, failed in outcomes:
        for when in ("setup", "call", "teardown"):
            stopper.pytest_runtest_logreport(
                SimpleNamespace(nodeid=nodeid, when=when, failed=failed and when == "call")
            )
        if stopper.session.shouldfail:
            return True
    return until_killed.killed(stopper.failed, prefix)


def test_verdict_does_not_depend_on_the_order():
    """Every order of the same outcomes gives the verdict of the whole run."""
    for prefix in (UP, "tests/proof/", "nowhere/"):
        whole = until_killed.killed([n for n, failed in OUTCOMES if failed], prefix)
        verdicts = {_verdict(order, prefix) for order in itertools.permutations(OUTCOMES)}
        assert verdicts == {whole}, prefix


def _server(tmp_path, *requests, modules=("pytest",)):
    env = {k: v for k, v in os.environ.items() if k not in ("TVM_REFERENCE_FIXES", "TVM_WRONG_FIX")}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "harness" / "pytest_server.py"), *modules],
        input="".join(json.dumps(r) + "\n" if not isinstance(r, str) else r for r in requests),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, proc.stdout.split(), proc.stderr


def test_server_stops_a_session_once_killed_and_keeps_sessions_apart(tmp_path):
    """A session stops at its kill, in either order; one session's state is not the next's."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(
        "import os\n\n"
        "def pytest_addoption(parser):\n"
        "    parser.addoption('--reverse', action='store_true')\n\n"
        "def pytest_collection_modifyitems(config, items):\n"
        "    if config.getoption('--reverse'):\n"
        "        items.reverse()\n"
        "    # what a session installs stays in its fork\n"
        "    assert 'INSTALLED' not in os.environ\n"
        "    os.environ['INSTALLED'] = '1'\n"
    )
    for folder, body in (("up", "assert False"), ("proof", "assert False")):
        (tmp_path / folder).mkdir()
        tests = "".join(f"def test_{i}():\n    {body}\n\n" for i in range(3))
        (tmp_path / folder / f"test_{folder}.py").write_text(tests + "def test_ok():\n    pass\n")
    # as this repository's pyproject.toml does: hypothesis's plugin costs each session 0.8 s
    quick = ["-p", "no:cacheprovider", "-p", "no:hypothesispytest"]
    stop = ["-p", "harness.stop_when_killed", "--until-killed=up/", *quick]
    logs = [tmp_path / f"{i}.log" for i in range(3)]
    rc, codes, err = _server(
        tmp_path,
        {"args": [*stop, "up", "proof"], "log": str(logs[0])},
        {"args": [*stop, "--reverse", "up", "proof"], "log": str(logs[1])},
        {"args": [*quick, "up", "proof"], "log": str(logs[2])},
    )
    assert rc == 0, err
    assert codes == ["1", "1", "1"]
    # upstream first: the first two failures kill; reversed: three proof failures do not,
    # the first upstream one does
    assert "killed by 2 failing tests" in logs[0].read_text()
    assert "killed by 4 failing tests" in logs[1].read_text()
    assert "6 failed, 2 passed" in logs[2].read_text()


def test_server_bad_input_is_one_line_and_exit_2(tmp_path):
    """A request that is no JSON object, or a module that does not import, is a one-line
    error with exit 2."""
    for requests, modules in ((["not json\n"], ("pytest",)), ([], ("no_such_module",))):
        rc, _, err = _server(tmp_path, *requests, modules=modules)
        assert rc == 2
        assert err.startswith("pytest_server: error: ") and err.count("\n") == 1, err


FILES = ["tests/python/a.py", "tests/proof/b.py", "tests/python/c.py"]


class _FakeServers:
    """Answers a session with the failures of FAILING among its targets, in JUnit XML."""

    FAILING = ("tests/python/a.py::t1", "tests/proof/b.py::t1", "tests/python/c.py::t1")

    def __init__(self):
        self.sessions = []

    def run(self, args, log):
        xml = next(a.split("=", 1)[1] for a in args if a.startswith("--junitxml="))
        targets = [a for a in args if a.startswith("tests/")]
        self.sessions.append(targets)
        cases = "".join(
            f'<testcase file="{n.split("::")[0]}" name="{n.split("::")[1]}"><failure/></testcase>'
            for n in self.FAILING
            if any(
                n == t or n.startswith(t.rstrip("/") + "/") or n.startswith(t + "::")
                for t in targets
            )
        )
        Path(xml).write_text(f"<testsuites><testsuite>{cases}</testsuite></testsuites>")
        return 1 if cases else 0


@pytest.mark.parametrize(
    "first, sessions",
    [
        (
            ["tests/python/a.py::t1", "tests/proof/b.py::t1"],
            [["tests/python/a.py::t1", "tests/proof/b.py::t1"]],
        ),
        (
            ["tests/python/a.py::t9", "tests/proof/b.py::t9"],
            [["tests/python/a.py::t9", "tests/proof/b.py::t9"], FILES],
        ),
        (["tests/elsewhere/x.py::t1"], [FILES]),
        ([], [FILES]),
    ],
    ids=["record-kills", "stale-record", "record-outside-the-files", "no-record"],
)
def test_recorded_killers_run_first_and_decide_only_a_kill(wrong_fix_runner, first, sessions):
    """The recorded killers run alone first and decide a kill only; a record that no longer
    kills, or names other files, leaves the verdict to the whole run."""
    servers = _FakeServers()
    names = wrong_fix_runner.killers("r:w", FILES, [], servers, first=first)
    assert wrong_fix_runner.killed(names)
    assert servers.sessions == sessions


def test_a_run_that_dies_leaves_the_other_verdicts(wrong_fix_runner, monkeypatch, capsys):
    """A wrong fix whose session dies has no verdict; the others are judged; the exit is 2."""
    dying = "--wrong-fix=narrow_scalar:skip-bool"

    class Servers(_FakeServers):
        def __init__(self, *_):
            super().__init__()

        def run(self, args, log):
            return -11 if dying in args else super().run(args, log)

        def close(self):
            pass

    monkeypatch.setattr(wrong_fix_runner, "Servers", Servers)
    monkeypatch.setattr(wrong_fix_runner, "files_of", lambda report, suite: FILES)
    only = ["--only", "narrow_scalar:skip-bool", "--only", "narrow_scalar:floats-only"]
    assert wrong_fix_runner.main([*only, "--jobs", "1"]) == 2
    out = capsys.readouterr().out
    assert "narrow_scalar:floats-only" in out.split("killed by")[0]
    assert "narrow_scalar:skip-bool" in out and "no verdict: pytest exit -11" in out
    assert "1 of 1 wrong fixes killed; 1 with no verdict" in out


def test_every_wrong_fix_has_recorded_killers(reference_fixes_load, wrong_fix_runner):
    """harness/killers.json names tests for every wrong fix of each line (without them a
    CI run still gives its verdicts, only slower: run scripts/wrong_fixes.py --record)."""
    runner = wrong_fix_runner
    record = json.loads(runner.KILLERS_FILE.read_text())
    for line, tirx in (("apache/tvm", False), ("apache/tvm-tirx", True)):
        wanted = {f"{report}:{name}" for report, name in runner.selectable(tirx)}
        assert wanted <= set(record[line]), sorted(wanted - set(record[line]))
