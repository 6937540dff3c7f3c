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
"""Where TVM's sources come from on a machine without a configured source.

    python scripts/tvm_source.py            # print a git directory that holds TVM_COMMIT
                                            # (TVM_GIT when set, else a local copy of TVM at
                                            # the base commit, when present), or
                                            # exit 2 with one line saying why there is none
    python scripts/tvm_source.py REPO       # the same for the local repository REPO

A local copy of TVM at the base commit, when present, is a shallow, read-only bare repository
beside the checkout (``../shared/tvm.git``). That copy has objects and packed refs but no ``refs/``
folder, which git needs to accept a directory as a repository; it cannot be written to. A
local repository git does not accept but that has ``objects/`` is read through a wrapper:
an empty bare repository under ``build/`` (git-ignored) whose object store borrows the
original's (``objects/info/alternates``). Reading blobs and trees (``git show``,
``git archive``) needs nothing else. Standard library only: scripts/build_tvm.sh calls it
before any virtualenv exists.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# TVM_SHARED_GIT names another such copy; set empty, there is none (the tools' tests)
SHARED = Path(os.environ.get("TVM_SHARED_GIT", ROOT.parent / "shared" / "tvm.git"))
WRAPPERS = ROOT / "build" / "tvm-source"
# the commit scripts/build_tvm.sh builds and the patches apply to (TVM main of 2026-08-22)
DEFAULT_COMMIT = "5d4dc8721307cf9677becacf0395c19be130e206"


class NoSource(Exception):
    """No readable TVM repository holds the commit; the message says why."""


def _git(*args):
    proc = subprocess.run(["git", *args], capture_output=True, text=True, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def _accepted(repo):
    """Whether git reads ``repo`` as a repository of its own (a bare one, or a checkout),
    not as a folder inside another checkout."""
    found = _git("-C", str(repo), "rev-parse", "--absolute-git-dir")
    return found is not None and Path(found).resolve() in (repo, repo / ".git")


def git_dir(repo):
    """A directory git reads as a repository with ``repo``'s objects: ``repo`` itself when
    git accepts it, else a wrapper borrowing ``repo/objects``; NoSource when neither."""
    repo = Path(repo).resolve()
    if not repo.is_dir():
        raise NoSource(f"{repo} is not there")
    if _accepted(repo):
        return repo
    objects = repo / "objects"
    if not objects.is_dir():
        raise NoSource(f"{repo} is not a git repository (no objects/)")
    wrapper = WRAPPERS / repo.as_posix().strip("/").replace("/", "+")
    alternates = wrapper / "objects" / "info" / "alternates"
    if not (alternates.is_file() and alternates.read_text().strip() == str(objects)):
        wrapper.mkdir(parents=True, exist_ok=True)
        if _git("init", "-q", "--bare", str(wrapper)) is None:
            raise NoSource(f"cannot create a git directory at {wrapper}")
        alternates.write_text(f"{objects}\n")
        if (repo / "shallow").is_file():  # the borrowed commits' parents are not there
            (wrapper / "shallow").write_text((repo / "shallow").read_text())
    return wrapper


def holding(repo, commit=DEFAULT_COMMIT):
    """``git_dir(repo)`` when it holds ``commit``; NoSource otherwise."""
    where = git_dir(repo)
    if _git("-C", str(where), "cat-file", "-e", f"{commit}^{{commit}}") is None:
        raise NoSource(f"{repo} does not hold TVM commit {commit[:12]}")
    return where


def default_repo():
    """The repository to read when none is named: TVM_GIT, else a local copy of TVM at the
    base commit, when present (None when neither is set or there)."""
    if os.environ.get("TVM_GIT"):
        return os.environ["TVM_GIT"]
    return str(SHARED) if str(SHARED) not in ("", ".") and SHARED.is_dir() else None


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) > 1:
        print("tvm_source: error: at most one argument, a local repository", file=sys.stderr)
        return 2
    repo = argv[0] if argv else default_repo()
    if repo is None:
        print(f"tvm_source: error: TVM_GIT is not set and {SHARED} is not there", file=sys.stderr)
        return 2
    try:
        print(holding(repo, os.environ.get("TVM_COMMIT", DEFAULT_COMMIT)))
    except NoSource as err:
        print(f"tvm_source: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
