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
"""scripts/build_tvm.sh without building anything: where its sources come from (the public
repositories unless overridden), which LLVM it takes and refuses, its input errors, and
fetching by URL (file:// URLs of three tiny repositories shaped like TVM, tvm-ffi and
libbacktrace, with --fetch-only)."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "build_tvm.sh"
DEFAULT_COMMIT = "5d4dc8721307cf9677becacf0395c19be130e206"
OVERRIDES = ("TVM_GIT", "TVM_FFI_GIT", "LIBBACKTRACE_GIT", "TVM_COMMIT", "LLVM_CONFIG")

pytestmark = pytest.mark.skipif(
    not (shutil.which("bash") and shutil.which("git")), reason="needs bash and git"
)


def fake_llvm_config(folder, version, headers=True):
    """An executable llvm-config that reports ``version`` (and an include dir with or
    without LLVM's headers)."""
    folder.mkdir(parents=True, exist_ok=True)
    include = folder / "include"
    if headers:
        (include / "llvm" / "IR").mkdir(parents=True, exist_ok=True)
        (include / "llvm" / "IR" / "IRBuilder.h").write_text("")
    path = folder / "llvm-config"
    path.write_text(
        "#!/bin/sh\n"
        f'case "$1" in --version) echo {version} ;; --includedir) echo {include} ;; esac\n'
    )
    path.chmod(0o755)
    return path


@pytest.fixture
def env(tmp_path):
    """The environment of a user who sets nothing: no source or LLVM overrides, and a PATH
    that has ninja (a stub: nothing is built here)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "ninja").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "ninja").chmod(0o755)
    clean = {k: v for k, v in os.environ.items() if k not in OVERRIDES}
    clean.pop("TVM_BUILD_WORK", None)
    clean.pop("JOBS", None)
    clean["PATH"] = f"{bin_dir}{os.pathsep}{clean.get('PATH', '')}"
    clean["LLVM_CONFIG"] = str(fake_llvm_config(tmp_path / "llvm19", "19.1.7"))
    clean["TVM_SHARED_GIT"] = ""  # nor a local copy of TVM at the base commit
    return clean


def build_tvm(env, *args, **overrides):
    proc = subprocess.run(
        ["bash", str(SCRIPT), *args],
        env={**env, **overrides},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def plan(stdout):
    """The ``key: value`` lines of a dry run."""
    return dict(line.split(": ", 1) for line in stdout.splitlines()[1:])


def git(*args, cwd=None):
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def commit_tree(repo, files, gitlinks=()):
    """A commit of ``files`` (path -> text) and submodule pins (path -> commit) in ``repo``."""
    if not (repo / ".git").exists():
        git("init", "-q", "-b", "main", str(repo))
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
        git("add", rel, cwd=repo)
    for rel, sha in gitlinks:
        git("update-index", "--add", "--cacheinfo", f"160000,{sha},{rel}", cwd=repo)
    git("commit", "-q", "-m", "c", cwd=repo)
    return git("rev-parse", "HEAD", cwd=repo)


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """Three tiny repositories pinned into each other as TVM, tvm-ffi and libbacktrace are;
    TVM's pinned commit is not its tip."""
    top = tmp_path_factory.mktemp("sources")
    bt = commit_tree(top / "libbacktrace", {"backtrace.h": ""})
    ffi = commit_tree(
        top / "tvm-ffi",
        {"include/tvm/ffi/c_api.h": "", "3rdparty/dlpack/include/dlpack/dlpack.h": ""},
        [("3rdparty/libbacktrace", bt)],
    )
    tree = {
        "CMakeLists.txt": "",
        "src/tirx/ir.cc": "",
        "src/relax/transform/allocate_workspace.cc": "",
        "python/tvm/__init__.py": "",
    }
    tvm = commit_tree(top / "tvm", tree, [("3rdparty/tvm-ffi", ffi)])
    commit_tree(top / "tvm", {"NEWS": "later"})
    return {"dir": top, "tvm": tvm, "ffi": ffi, "bt": bt}


def urls(sources, scheme="file://"):
    top = sources["dir"]
    return {
        "TVM_GIT": f"{scheme}{top / 'tvm'}",
        "TVM_FFI_GIT": f"{scheme}{top / 'tvm-ffi'}",
        "LIBBACKTRACE_GIT": f"{scheme}{top / 'libbacktrace'}",
        "TVM_COMMIT": sources["tvm"],
    }


def test_dry_run_defaults_to_the_public_repositories(env, tmp_path):
    """Without overrides the sources are the public repositories; nothing is created."""
    work = tmp_path / "work"
    rc, out, err = build_tvm(env, "--dry-run", "--work", str(work))
    assert rc == 0, err
    got = plan(out)
    assert got["tvm"] == f"https://github.com/apache/tvm @ {DEFAULT_COMMIT}"
    assert got["tvm-ffi"].startswith("https://github.com/apache/tvm-ffi @ the commit TVM")
    assert got["libbacktrace"].startswith("https://github.com/ianlancetaylor/libbacktrace @ ")
    assert got["llvm-config"] == f"{env['LLVM_CONFIG']} (LLVM 19.1.7)"
    patches = len(list((ROOT / "patches").glob("*.patch")))
    assert got["mode"] == f"patched, {patches} patch(es) from patches/"
    assert not work.exists()


def test_relative_work_directory_is_made_absolute(env, tmp_path):
    """A relative --work is taken from the current directory (env.sh holds absolute paths)."""
    proc = subprocess.run(
        ["bash", str(SCRIPT), "--dry-run", "--work", "rel/w"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert plan(proc.stdout)["work"] == f"{tmp_path}/rel/w"


def test_dry_run_reads_the_pins_of_local_sources(env, tmp_path, sources):
    """Local repositories override the defaults, and the dry run names every pinned commit."""
    local = urls(sources, scheme="")
    rc, out, err = build_tvm(env, "--dry-run", "--unpatched", "--work", str(tmp_path), **local)
    assert rc == 0, err
    got = plan(out)
    assert got["tvm"] == f"{local['TVM_GIT']} @ {sources['tvm']}"
    assert got["tvm-ffi"] == f"{local['TVM_FFI_GIT']} @ {sources['ffi']}"
    assert got["libbacktrace"] == f"{local['LIBBACKTRACE_GIT']} @ {sources['bt']}"
    assert got["mode"] == "unpatched, 0 patch(es) from patches/"


def test_dry_run_reads_a_shared_copy_without_refs(env, tmp_path, sources):
    """Without TVM_GIT, TVM comes from the shared read-only copy, which has no refs/ folder."""
    shared = tmp_path / "shared" / "tvm.git"
    git("clone", "-q", "--bare", str(sources["dir"] / "tvm"), str(shared))
    git("pack-refs", "--all", cwd=shared)
    shutil.rmtree(shared / "refs")
    env = {**env, "TVM_SHARED_GIT": str(shared)}
    local = {k: v for k, v in urls(sources, scheme="").items() if k != "TVM_GIT"}
    rc, out, err = build_tvm(env, "--dry-run", "--unpatched", "--work", str(tmp_path), **local)
    assert rc == 0, err
    got = plan(out)
    repo, at = got["tvm"].split(" @ ")
    assert at == sources["tvm"]
    assert (Path(repo) / "objects" / "info" / "alternates").read_text().strip() == str(
        shared / "objects"
    )
    assert got["tvm-ffi"] == f"{local['TVM_FFI_GIT']} @ {sources['ffi']}"


def newest_llvm_with_headers():
    found = [
        p
        for p in Path("/usr/lib").glob("llvm-*/bin/llvm-config")
        if (p.parent.parent / "include" / "llvm" / "IR" / "IRBuilder.h").is_file()
    ]
    key = lambda p: [int(n) for n in re.findall(r"\d+", p.parts[-3])]  # noqa: E731
    return max(found, key=key) if found else None


def test_default_llvm_is_the_newest_installed(env, tmp_path):
    """Without LLVM_CONFIG: the newest /usr/lib/llvm-N with headers, else llvm-config on PATH."""
    env = dict(env)
    on_path = env.pop("LLVM_CONFIG")
    shutil.copy(on_path, tmp_path / "bin" / "llvm-config")
    expected = newest_llvm_with_headers() or tmp_path / "bin" / "llvm-config"
    version = subprocess.run([expected, "--version"], capture_output=True, text=True).stdout
    rc, out, err = build_tvm(env, "--dry-run", "--work", str(tmp_path / "w"))
    if int(version.split(".")[0]) < 15:
        assert rc == 2 and f"({expected}) is too old" in err
    else:
        assert rc == 0, err
        assert plan(out)["llvm-config"] == f"{expected} (LLVM {version.strip()})"


def test_too_old_llvm_is_refused_up_front(env, tmp_path):
    """An LLVM older than TVM's minimum (15) stops the script at once, naming the package."""
    old = fake_llvm_config(tmp_path / "llvm14", "14.0.6")
    rc, out, err = build_tvm(env, "--work", str(tmp_path / "w"), LLVM_CONFIG=str(old))
    assert rc == 2
    assert err.splitlines() == [
        f"build_tvm: error: LLVM 14.0.6 ({old}) is too old, TVM needs >= 15: "
        "apt-get install llvm-19-dev, or point LLVM_CONFIG at the llvm-config of LLVM >= 15"
    ]
    assert out == ""
    assert not (tmp_path / "w").exists()


def test_llvm_without_headers_is_refused(env, tmp_path):
    """An llvm-config whose development package is missing is refused, naming that package."""
    bare = fake_llvm_config(tmp_path / "llvm18", "18.1.3", headers=False)
    rc, _, err = build_tvm(env, "--dry-run", LLVM_CONFIG=str(bare))
    assert rc == 2
    assert err.splitlines() == [
        f"build_tvm: error: LLVM 18.1.3 ({bare}) has no headers: apt-get install llvm-18-dev"
    ]


@pytest.mark.parametrize(
    "args, overrides, message",
    [
        (["--jobs"], {}, "--jobs needs a value"),
        (["--jobs", "0"], {}, "--jobs needs a positive number, not '0'"),
        (["--work"], {}, "--work needs a value"),
        (["--clean"], {}, "unknown argument '--clean'"),
        (["--dry-run", "--fetch-only"], {}, "--dry-run and --fetch-only exclude each other"),
        (["--dry-run"], {"TVM_COMMIT": "a b"}, "TVM_COMMIT='a b' is not a commit"),
        (["--dry-run"], {"LLVM_CONFIG": "/nonexistent/llvm-config"}, "is not an executable"),
        (["--dry-run"], {"TVM_GIT": "{tmp}"}, "not a git repository: {tmp}"),
        (["--dry-run"], {"TVM_GIT": "{tvm}", "TVM_COMMIT": "{ffi}"}, "does not hold TVM commit"),
    ],
    ids=[
        "jobs-no-value",
        "jobs-zero",
        "work-no-value",
        "unknown-argument",
        "dry-run-and-fetch-only",
        "bad-commit",
        "missing-llvm-config",
        "source-not-a-repository",
        "commit-not-in-source",
    ],
)
def test_bad_input_is_one_line_and_exit_2(env, tmp_path, sources, args, overrides, message):
    """Each bad argument or setting: exit 2 and one line on stderr, before any work."""
    names = {"tmp": tmp_path, "tvm": sources["dir"] / "tvm", "ffi": sources["ffi"]}
    overrides = {k: v.format(**names) for k, v in overrides.items()}
    rc, out, err = build_tvm(env, *args, **overrides)
    assert rc == 2
    assert len(err.splitlines()) == 1 and err.startswith("build_tvm: error: "), err
    assert message.format(**names) in err
    assert out == ""


def test_fetch_only_from_urls(env, tmp_path, sources):
    """From URLs only the pinned commits are fetched (depth 1) and checked out; a second run
    and a dry run reuse them without reaching the sources."""
    work = tmp_path / "work"
    fetch_only = ["--fetch-only", "--unpatched", "--work", str(work)]
    rc, out, err = build_tvm(env, *fetch_only, **urls(sources))
    assert rc == 0, err
    heads = {
        name: git("rev-parse", "HEAD", cwd=work / rel)
        for name, rel in [
            ("tvm", "tvm"),
            ("ffi", "tvm/3rdparty/tvm-ffi"),
            ("bt", "tvm/3rdparty/tvm-ffi/3rdparty/libbacktrace"),
        ]
    }
    assert heads == {k: sources[k] for k in heads}
    assert git("rev-parse", "--is-shallow-repository", cwd=work / "tvm") == "true"
    assert (work / "tvm" / "src" / "relax" / "transform" / "allocate_workspace.cc").is_file()
    assert "sources ready" in out and not (work / "venv").exists()

    gone = {k: f"file://{tmp_path}/gone" for k in ("TVM_GIT", "TVM_FFI_GIT", "LIBBACKTRACE_GIT")}
    gone["TVM_COMMIT"] = sources["tvm"]
    rc, out, err = build_tvm(env, *fetch_only, **gone)
    assert rc == 0, err
    assert "fetching" not in out
    rc, out, err = build_tvm(env, "--dry-run", "--work", str(work), **gone)
    assert rc == 0, err
    assert all(plan(out)[k].endswith("(already in the work directory)") for k in ("tvm", "tvm-ffi"))


def test_fetch_only_resolves_an_abbreviated_commit(env, tmp_path, sources):
    """An abbreviated TVM_COMMIT, which cannot be fetched by itself, is found after fetching
    the branches."""
    overrides = {**urls(sources), "TVM_COMMIT": sources["tvm"][:10]}
    fetch_only = ["--fetch-only", "--unpatched", "--work", str(tmp_path)]
    rc, out, err = build_tvm(env, *fetch_only, **overrides)
    assert rc == 0, err
    assert git("rev-parse", "HEAD", cwd=tmp_path / "tvm") == sources["tvm"]


def test_patches_that_do_not_apply_stop_the_script(env, tmp_path, sources):
    """Patched mode on a tree the patches do not fit: exit 2 naming the patch."""
    rc, _, err = build_tvm(env, "--fetch-only", "--work", str(tmp_path), **urls(sources))
    assert rc == 2
    assert len(err.splitlines()) == 1
    assert err.startswith("build_tvm: error: patch does not apply to ")
    assert not (tmp_path / ".applied").exists()
