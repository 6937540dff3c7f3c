#!/usr/bin/env bash
# Validate patches/ on a TVM source build, in one rerunnable command, and write
# patches/VALIDATION.md with the numbers.
#
#   scripts/validate_patches.sh [--work DIR]
#
# For the unpatched and then the patched tree (scripts/build_tvm.sh builds both in one
# build folder; switching rebuilds only the patched files), it runs:
#   * this suite's upstream files (tests/python), exported into TVM's tree (adapted to its
#     API) and run there under TVM's own conftests (scripts/tvm_tree_check.py): with the
#     source build (unpatched: bug tests strictly xfail; patched: --expect-fixed, no xfail
#     left) and, on the unpatched tree, with the pinned wheel too. (In place, the files use
#     the wheel's API, which the 2026-08 tree lacks: T.call_ffi_kernel.)
#   * scripts/check_tvm.py --check (exit 1 = a bug reproduces);
#   * TVM's own test files for the touched passes, from the same tree, without our tests;
#   * the differential run (generator/differential.py): every test program and a generated
#     corpus through the wheel, the wheel with the reference fixes, and each build.
# Leaves the patched build in place. Takes about an hour the first time (the build).
# The sources and the LLVM are scripts/build_tvm.sh's (the public repositories unless
# TVM_GIT / TVM_FFI_GIT / LIBBACKTRACE_GIT name others; see build_tvm.sh --help); a work
# directory that already holds them needs no network.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${TVM_BUILD_WORK:-/tmp/tvm-src-build}
[ "${1:-}" = "--work" ] && work=${2:?--work needs a directory}
export TVM_BUILD_WORK=$work

TVM_OWN_TESTS=(
  tests/python/relax/test_transform_allocate_workspace.py
  tests/python/tirx-transform/test_tir_transform_lower_tvm_builtin.py
  tests/python/tirx-transform/test_tir_transform_split_host_device.py
  tests/python/tirx-transform/test_tir_transform_make_packed_api.py
  tests/python/tirx-transform
  tests/python/codegen/test_target_codegen_cuda.py
  tests/python/codegen/test_target_codegen_llvm.py
  tests/python/relax/test_pipeline.py
  tests/python/tirx/iket/test_iket_profiler.py
)
summary() {  # the last pytest summary line of a log, without the '=' decoration
  grep -E "(passed|failed|error|xfailed|skipped|no tests ran)" "$1" | tail -n 1 | tr -d '=' | sed 's/^ *//; s/ *$//'
}

declare -A result
# the differential run (generator/differential.py): the corpus (the tests' programs, captured
# under the reference fixes, and the generated programs) and the wheel's two sides first; the
# build's sides after each build; the comparison at the end
diff_dir="$work/differential"
differential() {  # differential <python> <args...>
  local py=$1; shift
  (cd "$root" && "$py" -m generator.differential "$@")
}
# our tests inside TVM's files (the patched tree has them merged): left out of TVM's own runs,
# so that both columns count the same TVM tests
ours=()
while IFS= read -r id; do ours+=("--deselect=$id"); done < <(
  "$root/.venv/bin/python" - "$root" <<'PY'
import sys
sys.path.insert(0, f"{sys.argv[1]}/scripts")
from tvm_tree_check import ROOT, our_files, our_tests
for f in our_files():
    for name in our_tests(f):
        print(f"{f.relative_to(ROOT)}::{name}")
PY
)
wheel_py=$("$root/scripts/setup.sh" | tail -n 1) || exit 2
tree_check() {  # tree_check <key> <python> [tvm_tree_check args]: the exported files in TVM's tree
  local key=$1 py=$2 clean=(); shift 2
  # the wheel must not see the source build's PYTHONPATH / TVM_LIBRARY_PATH
  [ "$key" = wheel ] && clean=(-u PYTHONPATH -u TVM_LIBRARY_PATH)
  env "${clean[@]}" "$root/.venv/bin/python" "$root/scripts/tvm_tree_check.py" \
    --tvm-tree "$work/tvm" --python "$py" "$@" > "$work/tree-$key.log" 2>&1
  result[$key,rc]=$?
  result[$key]=$(grep -E "^tests/python/.*: " "$work/tree-$key.log" | sed 's/^tests\/python\///' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
  echo "  tree ($key): exit ${result[$key,rc]}"
}
echo "=== the differential run: corpus and the wheel's sides"
rm -rf "$diff_dir"; mkdir -p "$diff_dir"
(cd "$root" && env -u PYTHONPATH -u TVM_LIBRARY_PATH DIFFERENTIAL_CAPTURE="$diff_dir/tests.jsonl" \
  PYTHONPATH=scripts "$wheel_py" -m pytest -q -p no:cacheprovider -p differential_capture \
  tests/python tests/proof bugs --reference-fixes) > "$work/differential-capture.log" 2>&1
for step in "corpus $diff_dir --tests $diff_dir/tests.jsonl" "record $diff_dir --side wheel" \
    "record $diff_dir --side wheel+fixes"; do
  # shellcheck disable=SC2086
  env -u PYTHONPATH -u TVM_LIBRARY_PATH bash -c "cd '$root' && '$wheel_py' -m generator.differential $step" \
    || exit 2
done
for mode in unpatched patched; do
  echo "=== build ($mode)"
  flag=(); [ $mode = unpatched ] && flag=(--unpatched)
  start=$(date +%s)
  bash "$root/scripts/build_tvm.sh" "${flag[@]}" | tee "$work/build-$mode.log" || exit 2
  result[$mode,build_s]=$(( $(date +%s) - start ))
  # shellcheck disable=SC1091
  source "$work/env.sh"
  export PYTHONPATH TVM_LIBRARY_PATH
  echo "=== the exported files in TVM's tree, under its conftests ($mode)"
  if [ $mode = unpatched ]; then
    tree_check wheel "$wheel_py"
    tree_check unpatched "$TVM_PYTHON"
  else
    tree_check patched "$TVM_PYTHON" --expect-fixed
  fi
  side=base; [ $mode = patched ] && side=patched
  differential "$TVM_PYTHON" record "$diff_dir" --side $side || exit 2
  "$TVM_PYTHON" "$root/scripts/check_tvm.py" --check > "$work/check-$mode.log" 2>&1
  result[$mode,check_rc]=$?
  result[$mode,check]=$(grep -E "^[a-z_]+: " "$work/check-$mode.log" | grep -v "^commit: " | tr '\n' ';' | sed 's/;$//; s/;/; /g')
  echo "=== TVM's own tests ($mode)"
  for f in "${TVM_OWN_TESTS[@]}"; do
    flog="$work/own-$mode-$(basename "$f" .py | tr -c 'a-zA-Z0-9_\n' _).log"
    # the files the patches add are this suite's (counted above): leave them out here, so
    # that both columns count the same TVM tests
    (cd "$work/tvm" && "$TVM_PYTHON" -m pytest -p no:cacheprovider -q "$f" "${ours[@]}") > "$flog" 2>&1
    result[$mode,$f,failed]=$(grep -E "^(FAILED|ERROR) " "$flog" | cut -d' ' -f2 | sort | tr '\n' ' ')
    result[$mode,$f]=$(summary "$flog")
    echo "  $f: ${result[$mode,$f]}"
  done
done

env -u PYTHONPATH -u TVM_LIBRARY_PATH bash -c \
  "cd '$root' && '$wheel_py' -m generator.differential compare '$diff_dir' --markdown" \
  > "$work/differential.md"
result[differential_rc]=$?
src="$work/tvm"
npatches=$(ls "$root"/patches/*.patch | wc -l)
ffi_commit=$(git -C "$src/3rdparty/tvm-ffi" rev-parse HEAD)
# the LLVM build_tvm.sh used, from its "build_tvm: LLVM <version> (<llvm-config>)" line
llvm=$(sed -n 's/^build_tvm: LLVM \([^ ]*\) .*/\1/p' "$work/build-patched.log" | tail -n 1)
{
  echo "# Validation of patches/ on a TVM source build"
  echo
  echo "Produced by \`scripts/validate_patches.sh\` on $(date -u +%Y-%m-%d) ($(nproc) cores); rerun it to refresh."
  echo
  echo "- TVM: $(git -C "$src" log -1 --format='%H (%cs)' "HEAD~$npatches") plus the $npatches patches in patches/"
  echo "- tvm-ffi: $ffi_commit; Python side apache-tvm-ffi $("$TVM_PYTHON" -c 'import importlib.metadata as m; print(m.version("apache-tvm-ffi"))')"
  echo "- LLVM: ${llvm:-unknown}; build: CPU-only, USE_LLVM=ON, USE_CUDA=OFF (CUDA code generator compiled in)"
  echo "- build from nothing: $(cat "$work/full-build-seconds" 2>/dev/null || echo '(not measured)') s with ninja -j$(nproc); this run's builds: unpatched ${result[unpatched,build_s]} s, patched ${result[patched,build_s]} s (incremental)"
  echo
  echo "| what | unpatched | patched |"
  echo "|---|---|---|"
  echo "| the files exported into TVM's tree, TVM's conftests, this build (exit code; per file) | ${result[unpatched,rc]}; ${result[unpatched]} | ${result[patched,rc]}; ${result[patched]} |"
  echo "| the same with the pinned wheel ($(env -u PYTHONPATH -u TVM_LIBRARY_PATH "$wheel_py" -c 'import tvm; print(tvm.__version__)')) in the unpatched tree | ${result[wheel,rc]}; ${result[wheel]} | |"
  echo "| \`check_tvm.py --check\` exit code | ${result[unpatched,check_rc]} | ${result[patched,check_rc]} |"
  echo "| check_tvm verdicts | ${result[unpatched,check]} | ${result[patched,check]} |"
  for f in "${TVM_OWN_TESTS[@]}"; do
    echo "| TVM's \`$f\` | ${result[unpatched,$f]} | ${result[patched,$f]} |"
  done
  echo
  echo "TVM's own test files are run without the tests the patches add (those are this suite)."
  echo "Failing TVM tests, by mode (the same in both means the patches did not cause them):"
  echo
  for f in "${TVM_OWN_TESTS[@]}"; do
    for mode in unpatched patched; do
      [ -n "${result[$mode,$f,failed]}" ] && echo "- $mode, \`$f\`: ${result[$mode,$f,failed]}"
    done
  done
  echo
  echo "The differential run (\`python -m generator.differential compare $diff_dir --markdown\`,"
  echo "exit ${result[differential_rc]}; generator/differential.py says what each decision is):"
  echo
  cat "$work/differential.md"
  echo
  echo "patches/VERIFY_MEMORY_TVM_TESTS.md has the wider sweep for the stricter VerifyMemory."
} > "$root/patches/VALIDATION.md"
echo "=== wrote patches/VALIDATION.md"
cat "$root/patches/VALIDATION.md"
