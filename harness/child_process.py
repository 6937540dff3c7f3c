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
"""What the proof tests that run a program in a child process share (the GPU runs of the
host-level and the narrow kernel scalar reports, the crash of a non-constant virtual thread
extent): the fixes of the session that the child must see, a run that reads the JSON lines
the child prints, and how its exit is judged.

A child killed by SIGSEGV or SIGBUS died of the report's crash: the test's own exception for
it (``crash``) is raised, which the bug's strict xfail accepts; any other failure of the child
(an import error, a non-zero exit) is ``ChildFailed``, which no xfail accepts.
"""

import json
import os
import signal
import subprocess
import sys

import pytest

CRASH_SIGNALS = (signal.SIGSEGV, signal.SIGBUS)
# what the root conftest sets for the child processes of a session (harness/child_site)
FIX_VARIABLES = ("TVM_REFERENCE_FIXES", "TVM_WRONG_FIX")


class ChildFailed(RuntimeError):
    """The child failed in any other way: not the report's crash."""


def fix_env():
    """The fix variables of this process, as a child prints them back."""
    return {k: os.environ.get(k, "") for k in FIX_VARIABLES}


def raise_for(returncode, detail, crash):
    """Raise ``crash`` for a child killed by a crash signal, ChildFailed for any other
    failure; nothing for a child that exited 0."""
    if -returncode in CRASH_SIGNALS:
        raise crash(f"child killed by {signal.Signals(-returncode).name}: {detail}")
    if returncode != 0:
        raise ChildFailed(f"child exited {returncode}: {detail}")


def json_lines(text):
    """The JSON objects of a child's output, one a line (other lines are passed over)."""
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def run(args, timeout=600):
    """``python *args`` to its end: (the finished process, its JSON lines)."""
    proc = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    return proc, json_lines(proc.stdout)


def assert_crash_told_apart(tmp_path, crash):
    """A child killed by SIGSEGV raises ``crash``; a child that fails otherwise, ChildFailed."""
    script = tmp_path / "child.py"
    for body, exception in [
        ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", crash),
        ("raise ImportError('no module named tvm')", ChildFailed),
    ]:
        script.write_text(body)
        proc = subprocess.run([sys.executable, str(script)], capture_output=True, check=False)
        with pytest.raises(exception):
            raise_for(proc.returncode, body, crash)
