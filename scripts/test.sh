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
# The default mode also runs the apache/tvm-tirx line: tvm-tirx/tests/python against the
# pinned apache-tvm-tirx (.venv-tirx, scripts/setup.sh --tirx), as it is and with the
# reference fixes that work there (reference_fixes.ON_TVM_TIRX; the others' bug tests stay
# strict xfails, and the report header names them).
# Extra arguments after the mode go to pytest. TVM_PYTHON selects another TVM (see setup.sh).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
mode=both
case "${1:-}" in
  --expect-fixed) mode=expect-fixed; shift ;;
  --released) mode=released; shift ;;
esac

py=$(scripts/setup.sh | tail -n 1) || exit 2
lint_py=$py
[ -n "${TVM_PYTHON:-}" ] && { lint_py=$(TVM_PYTHON= scripts/setup.sh | tail -n 1) || exit 2; }

status=0
run() {  # run <title> <pytest args...>; pytest's exit 5 (no test ran) is a failure here
  echo "=== $1"; shift
  "$py" -m pytest -p no:cacheprovider "$@"
  local rc=$?
  [ $rc -eq 0 ] || { echo "=== FAILED (pytest exit $rc)"; status=1; }
}
tree() {  # tree <title> <tvm_tree_check.py args...>
  echo "=== $1"; shift
  "$py" scripts/tvm_tree_check.py --fake --python "$py" "$@" || { echo "=== FAILED"; status=1; }
}

echo "=== TVM under test: $("$py" -c 'import tvm; print(tvm.__version__, tvm.__file__)')"
echo "=== lint gate"
"$lint_py" scripts/lint.py || status=1
case "$mode" in
  both)
    run "suite against the TVM as it is (bug tests strictly xfail)" tests "$@"
    run "suite with the Python reference fixes (no xfail may remain)" tests --reference-fixes "$@"
    tree "exported files under TVM's conftests (bug tests strictly xfail)"
    tree "exported files under TVM's conftests, reference fixes (no xfail)" --reference-fixes
    if tirx_py=$(TVM_PYTHON= scripts/setup.sh --tirx | tail -n 1); then
      py=$tirx_py run "tvm-tirx line as it is (bug tests strictly xfail)" tvm-tirx/tests/python
      py=$tirx_py run "tvm-tirx line with the reference fixes ported there" \
        tvm-tirx/tests/python --reference-fixes
    else
      echo "=== FAILED: scripts/setup.sh --tirx"; status=1
    fi
    ;;
  # a single mode is for any TVM (a source build, another wheel): the tools' tests, then the
  # upstream files as exported for that TVM (adapted to its API: the files are written
  # against the pinned wheel's) under TVM's conftests; tests/proof and
  # tests/reference_fixes belong to the reference fixes, written for the wheel
  released)
    run "tools against the TVM as it is" tests/tools "$@"
    tree "upstream files exported for this TVM, TVM's conftests (bug tests strictly xfail)"
    ;;
  expect-fixed)
    run "tools against the TVM with the fixes" tests/tools --expect-fixed "$@"
    tree "upstream files exported for this TVM, TVM's conftests (no xfail)" --expect-fixed
    ;;
esac
[ $status -eq 0 ] && echo "=== ALL GREEN" || echo "=== SOME STEP FAILED"
exit $status
