#!/usr/bin/env bash
# Set everything up and run the whole suite (the command CI runs).
#
#   scripts/test.sh                  lint gate, then the suite twice against the TVM under
#                                    test: as it is (bug tests strictly xfail) and with the
#                                    Python reference fixes (--reference-fixes: no xfail left);
#                                    then the exported upstream files in a skeleton TVM tree
#                                    under TVM's conftests, both ways (scripts/tvm_tree_check.py)
#   scripts/test.sh --expect-fixed   for a TVM that carries the C++ fixes (patched source
#                                    build): lint gate, tests/tools, then the upstream files
#                                    exported for that TVM under TVM's conftests, no xfail left
#   scripts/test.sh --released       the same for a TVM as it is (bug tests strictly xfail)
#   scripts/test.sh --tools          the tools' own tests (tests/tools: check_tvm, the export,
#                                    the wrong-fix runner, the campaign, the bug scripts, ...),
#                                    against the TVM as it is and, for those marked both_ways,
#                                    with the reference fixes; .ci/run runs it after the default
# The default mode also runs the apache/tvm-tirx line: tvm-tirx/tests/python against the
# pinned apache-tvm-tirx (.venv-tirx, scripts/setup.sh --tirx), as it is and with the
# reference fixes that work there (bug_reports.ON_TVM_TIRX; the others' bug tests stay
# strict xfails, and the report header names them).
# Extra arguments after the mode go to pytest. TVM_PYTHON selects another TVM (see setup.sh).
# The steps are independent and run TEST_JOBS at a time (default: the number of cores).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
mode=both
case "${1:-}" in
  --expect-fixed) mode=expect-fixed; shift ;;
  --released) mode=released; shift ;;
  --tools) mode=tools; shift ;;
esac

py=$(scripts/setup.sh | tail -n 1) || exit 2
lint_py=$py
[ -n "${TVM_PYTHON:-}" ] && { lint_py=$(TVM_PYTHON= scripts/setup.sh | tail -n 1) || exit 2; }

status=0
# Independent steps run in parallel, TEST_JOBS at a time (default: the number of cores), each
# into a log of its own; a line says when each starts and when it finishes; the logs are
# printed in the order the steps were declared, each under its title, when all have ended. A step fails on any non-zero exit (pytest's 5, no test ran,
# included).
jobs_max=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ "$jobs_max" =~ ^[1-9][0-9]*$ ]] || { echo "test: error: TEST_JOBS must be a positive number" >&2; exit 2; }
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
titles=()
step() {  # step <title> <command...>: start it once fewer than jobs_max steps run
  local n=${#titles[@]}
  titles+=("$1"); shift
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  echo "... started: ${titles[$n]}"
  ( start=$SECONDS; "$@" > "$logs/$n.log" 2>&1; rc=$?; echo $rc > "$logs/$n.rc"
    echo $((SECONDS - start)) > "$logs/$n.s"
    echo "... finished: ${titles[$n]} ($((SECONDS - start)) s$([ $rc = 0 ] || echo ", exit $rc"))" ) &
}
finish() {  # wait for every step, then print their logs in order
  wait
  local n rc
  for n in "${!titles[@]}"; do
    echo "=== ${titles[$n]} ($(cat "$logs/$n.s" 2>/dev/null || echo ?) s)"
    cat "$logs/$n.log"
    rc=$(cat "$logs/$n.rc" 2>/dev/null || echo 255)
    [ "$rc" = 0 ] || { echo "=== FAILED (exit $rc)"; status=1; }
  done
  titles=()
}
run() {  # run <title> <pytest args...>
  # scripts/run_pytest.py: pytest as `python -m pytest` runs it, without what -m costs
  # TVMScript's parser; --tb=native: a failure's traceback as Python prints it, which pytest
  # builds in a tenth of the time of its own (it builds one for every xfailed test, too)
  local title=$1; shift
  step "$title" "$py" scripts/run_pytest.py -p no:cacheprovider --tb=native "$@"
}
tree() {  # tree <title> <tvm_tree_check.py args...>
  local title=$1; shift
  step "$title" "$py" scripts/tvm_tree_check.py --fake --python "$py" "$@"
}

if [ "$mode" = both ]; then  # set up the tvm-tirx line (before any step starts)...
  ( TVM_PYTHON= scripts/setup.sh --tirx > "$logs/tirx-setup" ) &
  tirx_setup=$!
fi
# ... while this line imports TVM
echo "=== TVM under test: $("$py" -c 'import tvm; print(tvm.__version__, tvm.__file__)')"
if [ "$mode" = both ]; then
  if wait "$tirx_setup"; then
    tirx_py=$(tail -n 1 "$logs/tirx-setup")
  else
    echo "=== FAILED: scripts/setup.sh --tirx"; status=1; tirx_py=
  fi
fi
echo "... $jobs_max step(s) at a time (TEST_JOBS)"
step "lint gate" "$lint_py" scripts/lint.py
case "$mode" in
  both)
    # the longest steps first, so that the last to start are short; the tools' own tests are
    # the --tools mode's
    run "suite with the Python reference fixes (no xfail may remain)" tests bugs --ignore=tests/tools \
      --reference-fixes "$@"
    run "suite against the TVM as it is (bug tests strictly xfail)" tests bugs --ignore=tests/tools \
      "$@"
    tree "exported files under TVM's conftests (bug tests strictly xfail)"
    tree "exported files under TVM's conftests, reference fixes (no xfail)" --reference-fixes
    if [ -n "$tirx_py" ]; then
      py=$tirx_py run "tvm-tirx line as it is (bug tests strictly xfail)" tvm-tirx/tests/python
      py=$tirx_py run "tvm-tirx line with the reference fixes ported there" \
        tvm-tirx/tests/python --reference-fixes
    fi
    finish
    ;;
  tools)
    run "the tools' tests, against the TVM as it is" tests/tools "$@"
    # the tools' tests give the same verdicts both ways but for those marked both_ways
    run "the tools' tests marked both_ways, with the reference fixes" tests/tools \
      --reference-fixes -m both_ways "$@"
    # the upstream files inside TVM's own tree at the base commit (git archive of TVM_GIT or
    # a local copy of TVM at the base commit, when present), under TVM's conftests, beside TVM's tests of those files
    if where=$(python3 scripts/tvm_source.py 2>&1); then
      intree() { local title=$1; shift
        step "$title" "$py" scripts/tvm_tree_check.py --tvm-git --python "$py" "$@"; }
      intree "upstream files in TVM's tree at the base commit (bug tests strictly xfail)"
      intree "upstream files in TVM's tree at the base commit, reference fixes (no xfail)" \
        --reference-fixes
    else
      echo "... not run: the upstream files in TVM's tree ($where)"
    fi
    finish
    ;;
  # a single mode is for any TVM (a source build, another wheel): the tools' tests, then the
  # upstream files as exported for that TVM (adapted to its API: the files are written
  # against the pinned wheel's) under TVM's conftests; tests/proof and the bugs' proof tests
  # (bugs/*/proof) belong to the reference fixes, written for the wheel
  released)
    run "tools against the TVM as it is" tests/tools "$@"
    tree "upstream files exported for this TVM, TVM's conftests (bug tests strictly xfail)"
    finish
    ;;
  expect-fixed)
    run "tools against the TVM with the fixes" tests/tools --expect-fixed "$@"
    tree "upstream files exported for this TVM, TVM's conftests (no xfail)" --expect-fixed
    finish
    ;;
esac
[ $status -eq 0 ] && echo "=== ALL GREEN" || echo "=== SOME STEP FAILED"
exit $status
