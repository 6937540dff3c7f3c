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
"""TVM's OpenCL runtime as a plugin for a TVM built without it (the pinned wheel).

    python scripts/opencl_runtime.py           # build it for this interpreter's TVM (or say
                                               # it is up to date), one line
    python scripts/opencl_runtime.py --check   # exit 0 when built and up to date, 1 when not
    python scripts/opencl_runtime.py --quiet   # the same as the first, silent when up to date
                                               # (scripts/setup.sh)
    python scripts/opencl_runtime.py --device  # which OpenCL device this TVM sees (exit 0),
                                               # or why none (exit 1), one line

The released wheel compiles OpenCL kernels but has no OpenCL runtime (``tvm.opencl(0)``
does not exist). TVM builds that runtime as a library of its own (``tvm_runtime_opencl``,
cmake/modules/OpenCL.cmake): ``src/backend/opencl/runtime/*.cc``. Those two files are
compiled here against the headers the wheel ships (``tvm/include``, ``tvm/src/runtime``,
``tvm_ffi/include``) and the few it lacks (``include/tvm/support/*``,
``src/support/{env,bytes_io}.h``), linked to the wheel's libtvm_runtime, libtvm_ffi and the
system libOpenCL, into ``build/opencl/<key>/libtvm_runtime_opencl.so`` (git-ignored; the key
names the TVM it was built for). A TVM source checkout (``python/tvm`` inside it) has all of
those files itself; a wheel takes them from TVM at ``TVM_COMMIT`` (default: the commit the
patches apply to), read from ``TVM_GIT`` (a local repository or a URL), else from
scripts/build_tvm.sh's checkout (``$TVM_BUILD_WORK/tvm``, ``~/tvm-build/tvm``) when it holds
that commit, else from https://github.com/apache/tvm.

``load()`` (after ``import tvm``) loads the plugin built for the TVM this process imported,
with RTLD_GLOBAL, so that ``tvm.opencl(0)`` works; a TVM that has OpenCL already is left
alone. ``device()`` says which OpenCL device is there, or why none is.

Needs a C++17 compiler, the OpenCL headers and libOpenCL (Debian: ``apt-get install
pocl-opencl-icd ocl-icd-opencl-dev opencl-headers``; pocl is a CPU OpenCL device). Exit codes:
0 built or up to date; 3 a prerequisite is missing (one line says what to install, nothing
built); 2 any other failure (one line; the compiler's output in build/opencl/<key>/build.log).
"""

import argparse
import ctypes
import fcntl
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "opencl"
LIBRARY = "libtvm_runtime_opencl.so"
DEBIAN_PACKAGES = "pocl-opencl-icd ocl-icd-opencl-dev opencl-headers"
INSTALL = f"apt-get install {DEBIAN_PACKAGES}"
DEFAULT_GIT = "https://github.com/apache/tvm"
# the commit scripts/build_tvm.sh builds and the patches apply to (TVM main of 2026-08-22);
# its OpenCL runtime compiles against the 0.27 wheel's headers
DEFAULT_COMMIT = "5d4dc8721307cf9677becacf0395c19be130e206"
RUNTIME_DIR = "src/backend/opencl/runtime"
SOURCES = ("opencl_device_api.cc", "opencl_module.cc")
HEADERS = ("opencl_common.h", "source_utils.h", "texture.h")
# what the runtime includes from outside src/runtime that a wheel does not ship
SUPPORT = ("src/support/env.h", "src/support/bytes_io.h", "include/tvm/support/io.h",
           "include/tvm/support/serializer.h")  # fmt: skip
FLAGS = ("-std=c++17", "-O2", "-fPIC", "-DNDEBUG",
         "-DDMLC_USE_LOGGING_LIBRARY=<tvm/runtime/logging.h>")  # fmt: skip
# the runtime sources whose code a src/runtime header reaches: both include pack_args.h
# (through opencl_common.h), only opencl_module.cc calls it (opencl_device_api.cc's object
# holds no symbol of it: tests/tools/test_opencl_runtime.py). A variant that changes only
# headers named here recompiles only their sources and links the plain build's other objects.
USED_BY = {"pack_args.h": ("opencl_module.cc",)}
VERSION = 2  # of this recipe: a change rebuilds


class Missing(Exception):
    """A prerequisite is missing; the message says what to install."""


class Failed(Exception):
    """The build cannot be done; the message is the one-line reason."""


def _package(name):
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def layout(tvm_dir=None):
    """Where the TVM of this interpreter keeps what the plugin is built against.

    {"tvm": package dir, "kind": "wheel" | "checkout", "includes": [...], "runtime": the
    directory that is src/runtime, "libs": [dirs of libtvm_runtime.so and libtvm_ffi.so],
    "sources": the checkout root for a checkout, else None}. Found without importing tvm.
    """
    tvm_dir = Path(tvm_dir).resolve() if tvm_dir else _package("tvm")
    if tvm_dir is None:
        raise Failed("this interpreter has no tvm package")
    ffi_dir = _package("tvm_ffi")
    checkout = tvm_dir.parent.parent
    if (tvm_dir / "include" / "tvm" / "runtime").is_dir():
        kind, top, sources = "wheel", tvm_dir, None
    elif (checkout / RUNTIME_DIR).is_dir() and (checkout / "include" / "tvm").is_dir():
        kind, top, sources = "checkout", checkout, checkout
    else:
        raise Failed(f"{tvm_dir}: neither a wheel with include/ nor a TVM checkout's python/tvm")
    includes = [top / "include"]
    for ffi_include in (
        ffi_dir / "include" if ffi_dir else None,
        top / "3rdparty" / "tvm-ffi" / "include",
        top / "3rdparty" / "tvm-ffi" / "3rdparty" / "dlpack" / "include",
    ):
        if ffi_include is not None and ffi_include.is_dir():
            includes.append(ffi_include)
    libs = []
    for var in ("TVM_LIBRARY_PATH",):
        libs += [Path(p) for p in os.environ.get(var, "").split(os.pathsep) if p]
    libs += [tvm_dir / "lib", top / "build", top / "build" / "lib", top / "lib"]
    if ffi_dir:
        libs.append(ffi_dir / "lib")
    runtime_lib = next((d for d in libs if (d / "libtvm_runtime.so").is_file()), None)
    ffi_lib = next((d for d in libs if (d / "libtvm_ffi.so").is_file()), None)
    if runtime_lib is None or ffi_lib is None:
        raise Failed(f"no libtvm_runtime.so / libtvm_ffi.so found for {tvm_dir}")
    return {
        "tvm": tvm_dir,
        "kind": kind,
        "includes": includes,
        "runtime": top / "src" / "runtime",
        "libs": list(dict.fromkeys([runtime_lib, ffi_lib])),
        "sources": sources,
    }


def key(where, variant=None):
    """The name of the build folder of the TVM at ``where`` (see layout), and of ``variant``
    (see Variant) when one is given."""
    lib = where["libs"][0] / "libtvm_runtime.so"
    stat = lib.stat()
    text = json.dumps([VERSION, str(where["tvm"]), str(lib), stat.st_size, stat.st_mtime_ns])
    name = hashlib.sha256(text.encode()).hexdigest()[:16]
    return name if variant is None else f"{name}-{variant.name}-{variant.digest(where)}"


class Variant:
    """The runtime built with changed headers of TVM's ``src/runtime``: how a reference fix
    (or a wrong fix) of a runtime header runs on the OpenCL device.

    ``name``: a word for the build folder; ``change(path, text)``: the new text of
    ``src/runtime/<path>`` for each header it changes (``paths``). A wheel only: a checkout
    builds its own files (a source build carries the C++ fix itself).
    """

    def __init__(self, name, paths, change):
        self.name, self.paths, self.change = name, tuple(paths), change

    def texts(self, where):
        """{path: changed text} of this variant for the TVM at ``where``."""
        if where["kind"] != "wheel":
            raise Failed(f"a runtime variant ({self.name}) is built for a wheel, not a checkout")
        out = {}
        for path in self.paths:
            original = (where["runtime"] / path).read_text()
            changed = self.change(path, original)
            if changed == original:
                raise Failed(f"the {self.name} variant does not change src/runtime/{path}")
            out[path] = changed
        return out

    def digest(self, where):
        text = json.dumps(sorted(self.texts(where).items()))
        return hashlib.sha256(text.encode()).hexdigest()[:12]


# the variant this process loads instead of the plain plugin (select())
_selected = {}


def select(variant):
    """Load ``variant`` (a Variant, or None for the plain plugin) when the plugin is loaded;
    a Failed when another one is loaded already."""
    name = getattr(variant, "name", None)
    if "done" in _loaded and name != getattr(_selected.get("variant"), "name", None):
        raise Failed(f"the OpenCL runtime plugin is loaded already ({_loaded['done']})")
    _selected["variant"] = variant


def selected():
    """The Variant this process loads (select()), or None for the plain plugin."""
    return _selected.get("variant")


def loaded():
    """The plugin this process loaded, or None."""
    return _loaded.get("done")


def library_for(tvm_dir=None, variant=None):
    """The plugin path for this TVM (whether or not it is built)."""
    return BUILD / key(layout(tvm_dir), variant) / LIBRARY


def prerequisites():
    """The compiler to use; Missing naming what is not there."""
    compiler = os.environ.get("CXX", "c++")
    missing = []
    if not shutil.which(compiler):
        missing.append(f"no C++ compiler ({compiler})")
    else:
        found = subprocess.run(
            [compiler, "-print-file-name=libOpenCL.so"], capture_output=True, text=True
        ).stdout.strip()
        if not os.path.isabs(found):
            missing.append("no libOpenCL.so")
    include_dirs = ["/usr/include", "/usr/local/include"]
    include_dirs += os.environ.get("CPATH", "").split(os.pathsep)
    if not any(d and os.path.isfile(os.path.join(d, "CL", "cl.h")) for d in include_dirs):
        missing.append("no CL/cl.h")
    if missing:
        raise Missing(", ".join(missing))
    return compiler


def _git(*args, timeout=300):
    proc = subprocess.run(
        ["git", *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    return proc.stdout if proc.returncode == 0 else None


def _source_repos():
    """Candidate repositories (local paths or URLs) to read TVM_COMMIT's files from: TVM_GIT
    alone when set; else the source build's checkout, a local copy of TVM at the base commit,
    when present (scripts/tvm_source.py), GitHub."""
    if os.environ.get("TVM_GIT"):
        return [os.environ["TVM_GIT"]]
    work = os.environ.get("TVM_BUILD_WORK") or os.path.expanduser("~/tvm-build")
    return [os.path.join(work, "tvm"), str(_tvm_source().SHARED), DEFAULT_GIT]


def _tvm_source():
    """scripts/tvm_source.py, loaded from its path (this file is loaded the same way)."""
    name = "_tvm_source_of_opencl_runtime"
    if name not in sys.modules:
        path = Path(__file__).with_name("tvm_source.py")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name]


def fetch_sources(dest):
    """Write the runtime's files and the support headers into ``dest`` (a tree laid out as
    TVM's) from TVM_COMMIT; return where they came from."""
    commit = os.environ.get("TVM_COMMIT", DEFAULT_COMMIT)
    paths = [f"{RUNTIME_DIR}/{f}" for f in SOURCES + HEADERS] + list(SUPPORT)
    if not shutil.which("git"):
        raise Missing("no git (to fetch TVM's OpenCL runtime sources)")
    tried = []
    for repo in _source_repos():
        clone = None
        if os.path.isdir(repo):
            source = _tvm_source()
            try:  # a read-only copy without refs/ (the shared one) is read through a wrapper
                git_dir, rev = str(source.holding(repo, commit)), commit
            except source.NoSource as err:
                tried.append(f"{repo} ({err})")
                continue
        elif "://" in repo or repo.startswith("git@"):
            # the commit alone, its blobs fetched as they are read
            clone = tempfile.mkdtemp(prefix="tvm-opencl-src-")
            _git("init", "-q", clone)
            if (
                _git("-C", clone, "fetch", "-q", "--depth=1", "--filter=blob:none", repo, commit)
                is None
            ):
                shutil.rmtree(clone, ignore_errors=True)
                tried.append(f"{repo} (cannot fetch {commit[:12]})")
                continue
            git_dir, rev = clone, "FETCH_HEAD"
        else:
            tried.append(f"{repo} (not there)")
            continue
        texts = {p: _git("-C", git_dir, "show", f"{rev}:{p}") for p in paths}
        if clone:
            shutil.rmtree(clone, ignore_errors=True)
        lacking = [p for p, text in texts.items() if text is None]
        if lacking:
            tried.append(f"{repo} (lacks {lacking[0]})")
            continue
        for path, text in texts.items():
            (dest / path).parent.mkdir(parents=True, exist_ok=True)
            (dest / path).write_text(text)
        return f"{repo} @ {commit[:12]}"
    raise Failed(f"no TVM sources at {commit[:12]}: tried {'; '.join(tried)} (set TVM_GIT)")


def build(tvm_dir=None, quiet=False, variant=None):
    """Build the plugin for the TVM at ``tvm_dir`` (default: this interpreter's), or its
    ``variant``, unless it is up to date; return (path, one-line status)."""
    where = layout(tvm_dir)
    own = next((d for d in where["libs"] if (d / LIBRARY).is_file()), None)
    if own is not None:
        if variant is not None:
            raise Failed(f"this TVM has its own OpenCL runtime: no {variant.name} variant")
        return own / LIBRARY, f"opencl runtime: this TVM has its own: {own / LIBRARY}"
    out_dir = BUILD / key(where, variant)
    library = out_dir / LIBRARY
    if library.is_file() and (out_dir / "stamp.json").is_file():
        return library, f"opencl runtime: up to date: {library.relative_to(ROOT)}"
    compiler = prerequisites()
    start = time.monotonic()
    tree = out_dir / "tree"
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir(parents=True)
    if where["sources"] is not None:  # a checkout compiles its own files
        origin, src_root = f"checkout {where['sources']}", where["sources"]
    else:
        origin, src_root = fetch_sources(tree), tree
        # "../../../runtime/x.h" from src/backend/opencl/runtime: the wheel's src/runtime
        if variant is None:
            (tree / "src" / "runtime").symlink_to(where["runtime"])
        else:  # its files, but the variant's headers
            changed = variant.texts(where)
            (tree / "src" / "runtime").mkdir(parents=True)
            for entry in where["runtime"].iterdir():
                if entry.name not in changed:
                    (tree / "src" / "runtime" / entry.name).symlink_to(entry)
            for path, text in changed.items():
                (tree / "src" / "runtime" / path).write_text(text)
            origin += f", src/runtime changed by the {variant.name} variant"
    includes = [src_root / "include", *where["includes"]]
    compile_flags = [*FLAGS, *[f"-I{d}" for d in includes]]
    objects, own = {}, SOURCES
    if variant is not None and all(p in USED_BY for p in variant.paths):
        own = tuple(f for f in SOURCES if any(f in USED_BY[p] for p in variant.paths))
        plain, _ = locked_build(tvm_dir)
        objects = {f: plain.parent / "objects" / f"{f}.o" for f in SOURCES if f not in own}
    (out_dir / "objects").mkdir(exist_ok=True)
    compiles = {
        f: [compiler, *compile_flags, "-c", str(src_root / RUNTIME_DIR / f), "-o",
            str(out_dir / "objects" / f"{f}.o")]
        for f in own
    }  # fmt: skip
    link = [
        compiler,
        "-shared",
        *[str(objects.get(f, out_dir / "objects" / f"{f}.o")) for f in SOURCES],
        "-o",
        str(library) + ".tmp",
        *[f"-L{d}" for d in where["libs"]],
        "-ltvm_runtime",
        "-ltvm_ffi",
        "-lOpenCL",
        "-Wl,-rpath," + ":".join(str(d) for d in where["libs"]),
    ]
    log = out_dir / "build.log"
    with open(log, "w") as sink:
        # the sources side by side, then the link
        for command in [*compiles.values(), link]:
            sink.write(" ".join(command) + "\n")
        sink.flush()
        running = [
            subprocess.Popen(c, stdout=sink, stderr=subprocess.STDOUT) for c in compiles.values()
        ]
        codes = [p.wait() for p in running]
        if not any(codes):
            codes.append(
                subprocess.run(link, stdout=sink, stderr=subprocess.STDOUT, check=False).returncode
            )
    failed = next((c for c in codes if c), 0)
    if failed:
        raise Failed(f"the compiler failed (exit {failed}); see {log}")
    command = [*compiles.values(), link]
    os.replace(str(library) + ".tmp", library)
    stamp = {"tvm": str(where["tvm"]), "kind": where["kind"], "sources": origin,
             "command": command}  # fmt: skip
    (out_dir / "stamp.json").write_text(json.dumps(stamp, indent=1) + "\n")
    seconds = time.monotonic() - start
    return library, (
        f"opencl runtime: built {library.relative_to(ROOT)} for {where['kind']} "
        f"{where['tvm']} from {origin} in {seconds:.0f} s"
    )


def locked_build(tvm_dir=None, variant=None):
    """build(), one process at a time per build folder (setup.sh runs, test steps that load a
    variant); different variants build side by side."""
    (BUILD / ".locks").mkdir(parents=True, exist_ok=True)
    with open(BUILD / ".locks" / key(layout(tvm_dir), variant), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return build(tvm_dir, variant=variant)


_loaded = {}


def load():
    """Load the plugin for the imported TVM (RTLD_GLOBAL); return None when it is loaded or
    this TVM has OpenCL itself, else the one-line reason it cannot be."""
    import tvm

    if "done" in _loaded or tvm.runtime.enabled("opencl"):
        return None
    variant = _selected.get("variant")
    try:
        library = library_for(Path(tvm.__file__).parent, variant)
        if variant is not None and not library.is_file():
            # built where it is first needed (about 20 s)
            library, _ = locked_build(Path(tvm.__file__).parent, variant)
    except (Failed, Missing, OSError, subprocess.SubprocessError) as err:
        return f"no OpenCL runtime plugin: {err}"
    if not library.is_file():
        return (
            "no OpenCL runtime plugin built for this TVM (run scripts/opencl_runtime.py; "
            f"it needs {INSTALL})"
        )
    try:
        ctypes.CDLL(str(library), mode=ctypes.RTLD_GLOBAL)
    except OSError as err:
        return f"cannot load {library}: {err}"
    _loaded["done"] = library
    return None


def device():
    """(tvm.opencl(0), its description) when an OpenCL device is there, else (None, the
    reason). Initializes OpenCL in this process (fork children before calling it)."""
    import tvm

    reason = load()
    if reason:
        return None, reason
    dev = tvm.opencl(0)
    if not dev.exist:
        return None, f"no OpenCL device (an ICD such as pocl-opencl-icd: {INSTALL})"
    return dev, f"OpenCL {dev.device_name}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 unless up to date")
    parser.add_argument("--quiet", action="store_true", help="print nothing when up to date")
    parser.add_argument("--device", action="store_true", help="say which device, exit 1 if none")
    args = parser.parse_args(argv)
    if args.device:
        dev, text = device()
        print(f"opencl device: {text}")
        return 0 if dev is not None else 1
    try:
        if args.check:
            library = library_for()
            up = library.is_file() and (library.parent / "stamp.json").is_file()
            print(f"opencl runtime: {'up to date' if up else 'not built'}: {library}")
            return 0 if up else 1
        _, line = locked_build()
        if args.quiet and ": up to date:" in line:
            return 0
    except Missing as err:
        compiler = " g++" if "compiler" in str(err) else ""
        print(f"opencl runtime: not built ({err}): {INSTALL}{compiler}")
        return 3
    except (Failed, OSError, subprocess.SubprocessError) as err:
        print(f"opencl runtime: error: {err}", file=sys.stderr)
        return 2
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
