#!/usr/bin/env bash
# Build TVM from source (CPU-only, LLVM on, CUDA code generator compiled in, as the
# released wheel has it), with this repository's patches applied or not.
#
#   scripts/build_tvm.sh [--unpatched] [--work DIR] [--jobs N]
#
# Sources (bare git mirrors or ordinary clones), overridable by environment:
#   TVM_GIT           apache/tvm         (default /work/.mirror/apache+tvm/repo)
#   TVM_FFI_GIT       apache/tvm-ffi     (default /work/.mirror/apache+tvm-ffi/repo)
#   LIBBACKTRACE_GIT  libbacktrace       (default /work/.mirror/ianlancetaylor+libbacktrace/repo)
#   TVM_COMMIT        TVM commit to build (default 5d4dc8721307, TVM main of 2026-08-22)
#   LLVM_CONFIG       llvm-config to use (default /usr/lib/llvm-22/bin/llvm-config, else PATH)
# DLPack 1.3 comes from the apache-tvm-ffi sdist on PyPI (the stored dlpack lacks it).
#
# Idempotent: a second run with the same patches and mode touches no source file, so
# ninja rebuilds nothing; switching modes rebuilds only the patched files.
# Prints the PYTHONPATH / TVM_LIBRARY_PATH / python to use on its last lines.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "build_tvm: error: $*" >&2; exit 2; }

mode=patched
work=${TVM_BUILD_WORK:-/tmp/tvm-src-build}
jobs=${JOBS:-$(nproc)}
while [ $# -gt 0 ]; do
  case "$1" in
    --unpatched) mode=unpatched ;;
    --work) work=${2:?--work needs a directory}; shift ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done

tvm_git=${TVM_GIT:-/work/.mirror/apache+tvm/repo}
ffi_git=${TVM_FFI_GIT:-/work/.mirror/apache+tvm-ffi/repo}
bt_git=${LIBBACKTRACE_GIT:-/work/.mirror/ianlancetaylor+libbacktrace/repo}
base=${TVM_COMMIT:-5d4dc8721307cf9677becacf0395c19be130e206}
ffi_pypi_version=0.1.13.post2

# --- toolchain --------------------------------------------------------------------
llvm_config=${LLVM_CONFIG:-}
if [ -z "$llvm_config" ]; then
  if [ -x /usr/lib/llvm-22/bin/llvm-config ]; then llvm_config=/usr/lib/llvm-22/bin/llvm-config
  else llvm_config=$(command -v llvm-config || true); fi
fi
[ -n "$llvm_config" ] && [ -x "$llvm_config" ] \
  || die "no llvm-config found (apt-get install llvm-22-dev, or set LLVM_CONFIG)"
"$llvm_config" --version >/dev/null 2>&1 || die "LLVM_CONFIG=$llvm_config does not run"
command -v ninja >/dev/null || die "ninja not found (apt-get install ninja-build)"
command -v python3 >/dev/null || die "python3 not found"
command -v git >/dev/null || die "git not found"

mkdir -p "$work" || die "cannot create work directory $work"
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

# --- sources ----------------------------------------------------------------------
for g in "$tvm_git" "$ffi_git" "$bt_git"; do
  git --git-dir="$g" rev-parse --git-dir >/dev/null 2>&1 \
    || git -C "$g" rev-parse --git-dir >/dev/null 2>&1 || die "not a git repository: $g"
done
git --git-dir="$tvm_git" cat-file -e "$base^{commit}" 2>/dev/null \
  || die "$tvm_git does not hold TVM commit $base"
git --git-dir="$tvm_git" cat-file -e "$base:src/relax/transform/allocate_workspace.cc" 2>/dev/null \
  || die "$tvm_git at $base is not a TVM tree (no src/relax/transform/allocate_workspace.cc)"

src="$work/tvm"
if [ ! -d "$src/.git" ]; then
  echo "build_tvm: cloning TVM $base into $src"
  git clone -q --no-checkout "$tvm_git" "$src"
  git -C "$src" -c advice.detachedHead=false checkout -q "$base"
fi
[ -f "$src/CMakeLists.txt" ] && [ -d "$src/src/tirx" ] || die "$src is not a TVM source tree"

ffi_pin=$(git -C "$src" ls-tree "$base" 3rdparty/tvm-ffi | awk '{print $3}')
ffi_dir="$src/3rdparty/tvm-ffi"
if [ "$(git -C "$ffi_dir" rev-parse HEAD 2>/dev/null)" != "$ffi_pin" ]; then
  echo "build_tvm: checking out tvm-ffi $ffi_pin"
  rm -rf "$ffi_dir"
  git clone -q --no-checkout "$ffi_git" "$ffi_dir"
  git -C "$ffi_dir" -c advice.detachedHead=false checkout -q "$ffi_pin" \
    || die "tvm-ffi mirror lacks commit $ffi_pin"
fi
bt_pin=$(git -C "$ffi_dir" ls-tree HEAD 3rdparty/libbacktrace | awk '{print $3}')
bt_dir="$ffi_dir/3rdparty/libbacktrace"
if [ "$(git -C "$bt_dir" rev-parse HEAD 2>/dev/null)" != "$bt_pin" ]; then
  rm -rf "$bt_dir"
  git clone -q --no-checkout "$bt_git" "$bt_dir"
  git -C "$bt_dir" -c advice.detachedHead=false checkout -q "$bt_pin" \
    || die "libbacktrace mirror lacks commit $bt_pin"
fi
dl_dir="$ffi_dir/3rdparty/dlpack"
if [ ! -f "$dl_dir/include/dlpack/dlpack.h" ]; then
  echo "build_tvm: fetching DLPack from the apache-tvm-ffi==$ffi_pypi_version sdist"
  tmp=$(mktemp -d)
  "$tools/bin/pip" download -q --no-deps --no-binary apache-tvm-ffi -d "$tmp" \
    "apache-tvm-ffi==$ffi_pypi_version" || die "cannot download the apache-tvm-ffi sdist"
  tar -xzf "$tmp"/apache_tvm_ffi-*.tar.gz -C "$tmp"
  sdl=$(find "$tmp" -path '*3rdparty/dlpack/include/dlpack/dlpack.h' | head -n 1)
  [ -n "$sdl" ] || die "the apache-tvm-ffi sdist carries no 3rdparty/dlpack"
  rm -rf "$dl_dir"; cp -r "$(dirname "$(dirname "$(dirname "$sdl")")")" "$dl_dir"
  rm -rf "$tmp"
fi

# --- patches ----------------------------------------------------------------------
patches=()
if [ "$mode" = patched ]; then
  while IFS= read -r p; do patches+=("$p"); done < <(ls "$here"/patches/*.patch 2>/dev/null | sort)
fi
stamp="$mode $(cat "${patches[@]}" /dev/null | sha256sum | cut -c1-16)"
if [ "$(cat "$work/.applied" 2>/dev/null)" != "$stamp" ] || [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
  rm -f "$work/.applied"  # until the patches below are all in
  git -C "$src" -c advice.detachedHead=false checkout -q -f "$base"
  git -C "$src" clean -q -fd -e 3rdparty -e build
  for p in "${patches[@]}"; do
    git -C "$src" apply --check "$p" 2>/dev/null || die "patch does not apply to $base: $p"
    git -C "$src" -c user.name=build -c user.email=build@localhost am -q "$p" \
      || { git -C "$src" am --abort 2>/dev/null; die "git am failed: $p"; }
  done
  echo "$stamp" > "$work/.applied"
fi
echo "build_tvm: $mode tree at $(git -C "$src" rev-parse --short HEAD) (base ${base:0:10}, ${#patches[@]} patch(es))"

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
echo "build_tvm: built in $elapsed s"
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
