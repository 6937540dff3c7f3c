#!/usr/bin/env bash
# Set everything up and print the bug report for the TVM under test (the pinned wheel by
# default, or TVM_PYTHON's TVM): is this TVM affected? Arguments go to check_tvm.py
# (--json, --check, --run-gpu, --bug NAME).
#
# --tirx (first argument): the extracted TIRx package instead (.venv-tirx with the pinned
# requirements-tirx.txt, scripts/setup.sh --tirx). TVM_PYTHON may also name an interpreter
# that imports only tvm_tirx: check_tvm.py then probes that package.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=()
if [ "${1:-}" = --tirx ]; then
  mode=(--tirx)
  shift
elif [ -n "${TVM_PYTHON:-}" ] && ! "$TVM_PYTHON" -c "import tvm" 2>/dev/null \
  && "$TVM_PYTHON" -c "import tvm_tirx" 2>/dev/null; then
  mode=(--tirx)  # TVM_PYTHON has tvm_tirx but no tvm
fi
py=$("$root/scripts/setup.sh" "${mode[@]}" | tail -n 1) || exit 2
exec "$py" "$root/scripts/check_tvm.py" "$@"
