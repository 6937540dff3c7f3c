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
"""Run pytest sessions, one after another, each in a fork of one process that has imported
the modules every session imports first (TVM, numpy, pytest).

    python harness/pytest_server.py MODULE [MODULE ...]

scripts/wrong_fixes.py runs one session per wrong fix, well over a hundred: in a fresh
interpreter each would spend a second importing TVM. This process imports the MODULEs once
and then reads requests from standard input, one JSON object per line:

    {"args": [pytest arguments], "log": "file for the session's output"}

For each it forks; the fork runs pytest as scripts/run_pytest.py does (in the working
directory of this process, which comes first on sys.path as under ``python -m pytest``) with
its output in the log file, and this process answers with one line, the session's exit code.
A fork starts from the state right after the imports, so that a session sees nothing of an
earlier one: what it installs (a wrong fix, a reference fix) goes with it. An unreadable
request ends the server with a one-line error and exit 2.
"""

import importlib
import importlib.util
import json
import os
import sys
import traceback
from pathlib import Path


def _load_run_pytest():
    """scripts/run_pytest.py (the launcher every pytest run here starts from), by its path."""
    path = Path(__file__).resolve().parent.parent / "scripts" / "run_pytest.py"
    spec = importlib.util.spec_from_file_location("run_pytest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _session(args, log):
    """In the fork: run one pytest session with its output in ``log``; never returns."""
    code = 3
    try:
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        code = RUN_PYTEST.main(list(args))
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(code))


def serve(stdin=sys.stdin, stdout=sys.stdout):
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            args, log = request["args"], request["log"]
            if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
                raise ValueError("args must be a list of strings")
        except (ValueError, KeyError, TypeError) as err:
            bad = line.strip()[:80]
            print(f"pytest_server: error: bad request {bad!r}: {err}", file=sys.stderr)
            return 2
        stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _session(args, log)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), file=stdout, flush=True)
    return 0


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if not argv:
        print("pytest_server: error: name the modules to import first", file=sys.stderr)
        return 2
    sys.path[0] = os.getcwd()
    for name in argv:
        try:
            importlib.import_module(name)
        except ImportError as err:
            print(f"pytest_server: error: cannot import {name}: {err}", file=sys.stderr)
            return 2
    return serve()


RUN_PYTEST = _load_run_pytest()

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
