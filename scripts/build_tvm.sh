#!/usr/bin/env bash
# Build TVM from source (CPU-only, LLVM on, CUDA code generator compiled in, as the
# released wheel has it), with this repository's patches applied or not.
#
#   scripts/build_tvm.sh [--unpatched] [--work DIR] [--jobs N] [--dry-run | --fetch-only]
#
#   --unpatched  build TVM as it is (default: with patches/*.patch applied)
#   --work DIR   work directory (default $TVM_BUILD_WORK, else /tmp/tvm-src-build)
#   --jobs N     parallel compile jobs (default $JOBS, else the number of cores)
#   --dry-run    check the input and the toolchain, print what would be fetched (source and
#                commit of each component) and which LLVM would be used; fetch and build nothing
#   --fetch-only fetch the sources into DIR/tvm and apply the patches (or not), then stop
#
# Sources: the public repositories by default; each can be a URL or a local repository
# (ordinary clone or bare mirror, e.g. for an offline machine). Only the commits needed are
# fetched (depth 1), into the work directory; a later run reuses them without the network.
#   TVM_GIT           default: a local copy of TVM at the base commit, when present
#                     (../shared/tvm.git, or TVM_SHARED_GIT), else
#                     https://github.com/apache/tvm
#   TVM_FFI_GIT       default https://github.com/apache/tvm-ffi  (commit: TVM's 3rdparty/tvm-ffi)
#   LIBBACKTRACE_GIT  default https://github.com/ianlancetaylor/libbacktrace
#                     (commit: tvm-ffi's 3rdparty/libbacktrace)
#   TVM_COMMIT        TVM commit to build (default 5d4dc8721307, TVM main of 2026-08-22, the
#                     commit the patches apply to)
#   LLVM_CONFIG       llvm-config to use; default: the newest /usr/lib/llvm-*/bin/llvm-config
#                     with its headers installed, else llvm-config on PATH. TVM needs LLVM >= 15.
# DLPack (tvm-ffi's 3rdparty/dlpack) comes from the apache-tvm-ffi sdist on PyPI; cmake and
# the Python build tools are pip-installed into DIR/venv. Needs git, ninja, python3 and a C++17
# compiler.
#
# Idempotent: a second run with the same patches and mode touches no source file, so
# ninja rebuilds nothing; switching modes rebuilds only the patched files.
# Prints the PYTHONPATH / TVM_LIBRARY_PATH / python to use on its last lines, and writes them
# to DIR/env.sh.
# Exit codes: 0 built (or dry run done), 2 with a one-line reason on stderr.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "build_tvm: error: $*" >&2; exit 2; }
say() { echo "build_tvm: $*"; }

min_llvm=15
mode=patched
dry=0
fetch_only=0
work=${TVM_BUILD_WORK:-/tmp/tvm-src-build}
jobs=${JOBS:-$(nproc)}
while [ $# -gt 0 ]; do
  case "$1" in
    --unpatched) mode=unpatched ;;
    --dry-run) dry=1 ;;
    --fetch-only) fetch_only=1 ;;
    --work|--jobs)
      [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (see --help)"
      if [ "$1" = --work ]; then work=$2; else jobs=$2; fi
      shift ;;
    --work=*) work=${1#--work=} ;;
    --jobs=*) jobs=${1#--jobs=} ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[ -n "$work" ] || die "empty work directory"
case $work in /*) ;; *) work=$PWD/$work ;; esac  # env.sh must work from anywhere
[ $dry = 0 ] || [ $fetch_only = 0 ] || die "--dry-run and --fetch-only exclude each other"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive number, not '$jobs'"

# TVM: TVM_GIT, else a local copy of TVM at the base commit, when present (scripts/tvm_source.py;
# it also reads a local copy git does not accept, one without refs/), else GitHub
if [ -n "${TVM_GIT:-}" ]; then
  tvm_git=$TVM_GIT
  if [[ "$tvm_git" != *://* ]] && wrapped=$(python3 "$here/scripts/tvm_source.py" "$tvm_git" 2>/dev/null); then
    tvm_git=$wrapped
  fi
elif wrapped=$(python3 "$here/scripts/tvm_source.py" 2>/dev/null); then
  tvm_git=$wrapped
else
  tvm_git=https://github.com/apache/tvm
fi
ffi_git=${TVM_FFI_GIT:-https://github.com/apache/tvm-ffi}
bt_git=${LIBBACKTRACE_GIT:-https://github.com/ianlancetaylor/libbacktrace}
base=${TVM_COMMIT:-5d4dc8721307cf9677becacf0395c19be130e206}
ffi_pypi_version=0.1.13.post2
[[ "$base" =~ ^[A-Za-z0-9][A-Za-z0-9._/-]*$ ]] || die "TVM_COMMIT='$base' is not a commit"

# --- toolchain --------------------------------------------------------------------
command -v git >/dev/null || die "git not found"
command -v python3 >/dev/null || die "python3 not found"
command -v ninja >/dev/null || die "ninja not found (apt-get install ninja-build)"

llvm_hint="apt-get install llvm-19-dev, or point LLVM_CONFIG at the llvm-config of LLVM >= $min_llvm"
llvm_config=${LLVM_CONFIG:-}
if [ -z "$llvm_config" ]; then
  # the newest LLVM whose headers are installed (Debian/Ubuntu: /usr/lib/llvm-N, package
  # llvm-N-dev); /usr/bin/llvm-config is often an older default
  while IFS= read -r c; do
    [ -x "$c" ] && [ -f "$(dirname "$c")/../include/llvm/IR/IRBuilder.h" ] && llvm_config=$c
  done < <(ls -d /usr/lib/llvm-*/bin/llvm-config 2>/dev/null | sort -V)
  [ -n "$llvm_config" ] || llvm_config=$(command -v llvm-config || true)
  [ -n "$llvm_config" ] || die "no llvm-config found ($llvm_hint)"
fi
[ -x "$llvm_config" ] || die "LLVM_CONFIG=$llvm_config is not an executable ($llvm_hint)"
llvm_version=$("$llvm_config" --version 2>/dev/null) \
  || die "$llvm_config --version fails ($llvm_hint)"
llvm_major=${llvm_version%%.*}
[[ "$llvm_major" =~ ^[0-9]+$ ]] \
  || die "$llvm_config reports an unreadable version '$llvm_version' ($llvm_hint)"
[ "$llvm_major" -ge "$min_llvm" ] \
  || die "LLVM $llvm_version ($llvm_config) is too old, TVM needs >= $min_llvm: $llvm_hint"
[ -f "$("$llvm_config" --includedir 2>/dev/null)/llvm/IR/IRBuilder.h" ] \
  || die "LLVM $llvm_version ($llvm_config) has no headers: apt-get install llvm-$llvm_major-dev"

# --- sources: checks that need no network -------------------------------------------
is_local() { [[ "$1" != *://* && ! "$1" =~ ^[^/]+@[^/]+: ]]; }
for g in "$tvm_git" "$ffi_git" "$bt_git"; do
  if is_local "$g"; then
    git -C "$g" rev-parse --git-dir >/dev/null 2>&1 || die "not a git repository: $g"
  fi
done
if is_local "$tvm_git"; then
  git -C "$tvm_git" cat-file -e "$base^{commit}" 2>/dev/null \
    || die "$tvm_git does not hold TVM commit $base"
  git -C "$tvm_git" cat-file -e "$base:src/relax/transform/allocate_workspace.cc" 2>/dev/null \
    || die "$tvm_git at $base is not a TVM tree (no src/relax/transform/allocate_workspace.cc)"
fi

patches=()
if [ "$mode" = patched ]; then
  while IFS= read -r p; do patches+=("$p"); done < <(ls "$here"/patches/*.patch 2>/dev/null | sort)
fi
src="$work/tvm"
ffi_dir="$src/3rdparty/tvm-ffi"
bt_dir="$ffi_dir/3rdparty/libbacktrace"
dl_dir="$ffi_dir/3rdparty/dlpack"

# the commit a submodule path is pinned to in REV of a repository, if it is at hand
pin_in() {  # repo rev path
  git -C "$1" rev-parse --git-dir >/dev/null 2>&1 || return 0
  git -C "$1" ls-tree "$2" "$3" 2>/dev/null | awk '$2 == "commit" {print $3}'
}

if [ $dry = 1 ]; then
  # the pins are read where no network is needed: the work directory's checkout, or a
  # local source
  tvm_at=$(git -C "$src" rev-parse -q --verify "$base^{commit}" 2>/dev/null \
    || { is_local "$tvm_git" && git -C "$tvm_git" rev-parse -q --verify "$base^{commit}"; } \
    || echo "$base")
  ffi_pin=$(pin_in "$src" "$tvm_at" 3rdparty/tvm-ffi)
  if [ -z "$ffi_pin" ] && is_local "$tvm_git"; then
    ffi_pin=$(pin_in "$tvm_git" "$tvm_at" 3rdparty/tvm-ffi)
  fi
  bt_pin=""
  if [ -n "$ffi_pin" ]; then
    bt_pin=$(pin_in "$ffi_dir" "$ffi_pin" 3rdparty/libbacktrace)
    if [ -z "$bt_pin" ] && is_local "$ffi_git"; then
      bt_pin=$(pin_in "$ffi_git" "$ffi_pin" 3rdparty/libbacktrace)
    fi
  fi
  there=" (already in the work directory)"
  at() {  # dir commit: whether DIR is checked out at COMMIT
    [ -n "$2" ] && [ "$(git -C "$1" rev-parse -q --verify HEAD 2>/dev/null)" = "$2" ]
  }
  in_src=""; git -C "$src" cat-file -e "$tvm_at^{commit}" 2>/dev/null && in_src=$there
  in_ffi=""; at "$ffi_dir" "$ffi_pin" && in_ffi=$there
  in_bt=""; at "$bt_dir" "$bt_pin" && in_bt=$there
  in_dl=""; [ -f "$dl_dir/include/dlpack/dlpack.h" ] && in_dl=$there
  say "dry run: nothing is fetched or built"
  echo "work: $work"
  echo "mode: $mode, ${#patches[@]} patch(es) from patches/"
  echo "tvm: $tvm_git @ $tvm_at$in_src"
  echo "tvm-ffi: $ffi_git @ ${ffi_pin:-the commit TVM $tvm_at pins as 3rdparty/tvm-ffi}$in_ffi"
  echo "libbacktrace: $bt_git @ ${bt_pin:-the commit tvm-ffi pins as 3rdparty/libbacktrace}$in_bt"
  echo "dlpack: the apache-tvm-ffi==$ffi_pypi_version sdist on PyPI$in_dl"
  echo "llvm-config: $llvm_config (LLVM $llvm_version)"
  echo "jobs: $jobs"
  exit 0
fi
say "LLVM $llvm_version ($llvm_config)"

mkdir -p "$work" || die "cannot create work directory $work"
# one run per work directory: a second one would truncate the first one's log and run a second
# ninja in the same build folder (the lock goes with this process and its children)
exec 9>"$work/.build_tvm.lock" || die "cannot write the lock file $work/.build_tvm.lock"
flock -n 9 || die "another build_tvm.sh run holds $work (wait for it, or use --work DIR)"

# --- sources ----------------------------------------------------------------------
# Make commit REV of SOURCE present in the repository DIR (created if missing); its full hash
# in $fetched. A commit already there costs nothing; otherwise only that commit is fetched
# (depth 1), or, where the server refuses that (REV abbreviated, ...), the branches and tags
# without file contents.
fetch_commit() {  # dir source rev
  local dir=$1 source=$2 rev=$3 filter=()
  is_local "$source" || filter=(--filter=blob:none)
  if [ ! -d "$dir/.git" ]; then
    { mkdir -p "$dir" && git -c init.defaultBranch=build init -q "$dir"; } \
      || die "cannot create a git repository in $dir"
  fi
  if fetched=$(git -C "$dir" rev-parse -q --verify "$rev^{commit}"); then
    return
  fi
  say "fetching $rev from $source"
  if git -C "$dir" fetch -q --depth=1 "$source" "$rev" 2>/dev/null; then
    fetched=$(git -C "$dir" rev-parse FETCH_HEAD)
    return
  fi
  git -C "$dir" fetch -q "${filter[@]}" --tags "$source" '+refs/heads/*:refs/remotes/origin/*' \
    || die "cannot fetch from $source"
  fetched=$(git -C "$dir" rev-parse -q --verify "$rev^{commit}" \
    || git -C "$dir" rev-parse -q --verify "origin/$rev^{commit}") \
    || die "$source has no commit $rev"
}
# DIR checked out at commit SHA of SOURCE (a fresh repository unless DIR is there already)
checkout_at() {  # dir source sha
  [ "$(git -C "$1" rev-parse -q --verify HEAD 2>/dev/null)" = "$3" ] && return
  rm -rf "$1"
  fetch_commit "$1" "$2" "$3"
  git -C "$1" -c advice.detachedHead=false checkout -q "$fetched" \
    || die "cannot check out $3 in $1"
}

fetch_commit "$src" "$tvm_git" "$base"
base_sha=$fetched
git -C "$src" cat-file -e "$base_sha:src/relax/transform/allocate_workspace.cc" 2>/dev/null \
  || die "$tvm_git at $base is not a TVM tree (no src/relax/transform/allocate_workspace.cc)"
if ! git -C "$src" rev-parse -q --verify HEAD >/dev/null; then  # nothing checked out yet
  say "checking out TVM $base_sha into $src"
  git -C "$src" -c advice.detachedHead=false checkout -q "$base_sha"
fi
[ -f "$src/CMakeLists.txt" ] && [ -d "$src/src/tirx" ] || die "$src is not a TVM source tree"

ffi_pin=$(git -C "$src" ls-tree "$base_sha" 3rdparty/tvm-ffi | awk '{print $3}')
[ -n "$ffi_pin" ] || die "TVM $base_sha pins no 3rdparty/tvm-ffi"
if [ "$(git -C "$ffi_dir" rev-parse HEAD 2>/dev/null)" != "$ffi_pin" ]; then
  say "checking out tvm-ffi $ffi_pin"
  checkout_at "$ffi_dir" "$ffi_git" "$ffi_pin"
fi
bt_pin=$(git -C "$ffi_dir" ls-tree HEAD 3rdparty/libbacktrace | awk '{print $3}')
[ -n "$bt_pin" ] || die "tvm-ffi $ffi_pin pins no 3rdparty/libbacktrace"
if [ "$(git -C "$bt_dir" rev-parse HEAD 2>/dev/null)" != "$bt_pin" ]; then
  say "checking out libbacktrace $bt_pin"
  checkout_at "$bt_dir" "$bt_git" "$bt_pin"
fi

# --- patches ----------------------------------------------------------------------
stamp="$mode $(cat "${patches[@]}" /dev/null | sha256sum | cut -c1-16)"
if [ "$(cat "$work/.applied" 2>/dev/null)" != "$stamp" ] \
   || [ "$(git -C "$src" rev-parse -q --verify "HEAD~${#patches[@]}" 2>/dev/null)" != "$base_sha" ] \
   || [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
  rm -f "$work/.applied"  # until the patches below are all in
  # the modification times of the files the current patches touch: a file whose content
  # comes out the same gets its time back, so that ninja rebuilds only what changed (a
  # header that every patch series touches alike would otherwise rebuild the whole tree)
  old_head=$(git -C "$src" rev-parse HEAD)
  declare -A mtimes=()
  # (those of the tree as it is and those the new patches touch: switching from the
  # unpatched tree, the first are none)
  while IFS= read -r f; do
    [ -f "$src/$f" ] && mtimes[$f]=$(stat -c %Y "$src/$f")
  done < <({ git -C "$src" diff --name-only "$base_sha" "$old_head" 2>/dev/null
             sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "${patches[@]}" /dev/null; } | sort -u)
  git -C "$src" -c advice.detachedHead=false checkout -q -f "$base_sha"
  git -C "$src" clean -q -fd -e 3rdparty -e build
  for p in "${patches[@]}"; do
    git -C "$src" apply --check "$p" 2>/dev/null || die "patch does not apply to $base: $p"
    git -C "$src" -c user.name=build -c user.email=build@localhost am -q -k "$p" \
      || { git -C "$src" am --abort 2>/dev/null; die "git am failed: $p"; }
  done
  changed=" $(git -C "$src" diff --name-only "$old_head" HEAD 2>/dev/null | tr '\n' ' ')"
  for f in "${!mtimes[@]}"; do
    case "$changed" in *" $f "*)
      # a C++ file whose change is in comments alone (the same text once the preprocessor
      # drops the comments, as for a doc comment in a header every file includes) keeps its
      # time too: no object can differ but for line numbers in that file's check messages
      case "$f" in *.h | *.cc) ;; *) continue ;; esac
      old=$(git -C "$src" show "$old_head:$f" 2>/dev/null | cpp -fpreprocessed -dD -E -P - 2>/dev/null) || continue
      [ -n "$old" ] && [ "$old" = "$(cpp -fpreprocessed -dD -E -P "$src/$f" 2>/dev/null)" ] || continue
      say "only comments differ in $f: its time is kept" ;;
    esac
    [ -f "$src/$f" ] && touch -d "@${mtimes[$f]}" "$src/$f"
  done
  echo "$stamp" > "$work/.applied"
fi
say "$mode tree at $(git -C "$src" rev-parse --short HEAD) (base ${base_sha:0:10}, ${#patches[@]} patch(es))"

if [ $fetch_only = 1 ]; then
  say "sources ready in $src (--fetch-only: no build tools, DLPack or build)"
  exit 0
fi

# --- build tools and DLPack -------------------------------------------------------
tools="$work/venv"
if [ ! -x "$tools/bin/python" ]; then
  python3 -m venv "$tools" || die "cannot create a virtualenv in $tools"
fi
if ! "$tools/bin/python" -c "import tvm_ffi, numpy, pytest, ml_dtypes, typing_extensions, cmake" 2>/dev/null \
   || [ "$("$tools/bin/python" -c 'import importlib.metadata as m; print(m.version("apache-tvm-ffi"))')" != "$ffi_pypi_version" ]; then
  "$tools/bin/pip" install -q "cmake==3.31.10" "apache-tvm-ffi==$ffi_pypi_version" numpy pytest \
    ml_dtypes typing_extensions psutil scipy || die "pip install of the build tools failed"
fi
cmake="$tools/bin/cmake"
if [ ! -f "$dl_dir/include/dlpack/dlpack.h" ]; then
  say "fetching DLPack from the apache-tvm-ffi==$ffi_pypi_version sdist"
  tmp=$(mktemp -d)
  "$tools/bin/pip" download -q --no-deps --no-binary apache-tvm-ffi -d "$tmp" \
    "apache-tvm-ffi==$ffi_pypi_version" || die "cannot download the apache-tvm-ffi sdist"
  tar -xzf "$tmp"/apache_tvm_ffi-*.tar.gz -C "$tmp"
  sdl=$(find "$tmp" -path '*3rdparty/dlpack/include/dlpack/dlpack.h' | head -n 1)
  [ -n "$sdl" ] || die "the apache-tvm-ffi sdist carries no 3rdparty/dlpack"
  rm -rf "$dl_dir"; cp -r "$(dirname "$(dirname "$(dirname "$sdl")")")" "$dl_dir"
  rm -rf "$tmp"
fi

# --- configure and build ----------------------------------------------------------
bld="$src/build"
mkdir -p "$bld"
fresh=0
if [ ! -f "$bld/build.ninja" ]; then
  fresh=1
  "$cmake" -S "$src" -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DUSE_LLVM="$llvm_config" -DUSE_CUDA=OFF > "$work/configure.log" 2>&1 \
    || die "cmake configure failed, see $work/configure.log"
fi
start=$(date +%s)
ninja -C "$bld" -j "$jobs" > "$work/ninja.log" 2>&1 || { tail -n 30 "$work/ninja.log" >&2; die "ninja failed, see $work/ninja.log"; }
elapsed=$(( $(date +%s) - start ))
say "built in $elapsed s"
# the time of a build from nothing, for patches/VALIDATION.md
[ $fresh = 1 ] && echo "$elapsed" > "$work/full-build-seconds"

cat > "$work/env.sh" <<ENV
export PYTHONPATH=$src/python
export TVM_LIBRARY_PATH=$bld
export TVM_PYTHON=$tools/bin/python
ENV
echo "PYTHONPATH=$src/python"
echo "TVM_LIBRARY_PATH=$bld"
echo "TVM_PYTHON=$tools/bin/python   (or: source $work/env.sh)"
