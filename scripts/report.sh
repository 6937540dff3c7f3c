#!/usr/bin/env bash
# Set everything up and print the bug report for the TVM under test (the pinned wheel by
# default, or TVM_PYTHON's TVM): is this TVM affected? Arguments go to check_tvm.py
# (--json, --check, --run-gpu, --bug NAME).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
py=$("$root/scripts/setup.sh" | tail -n 1) || exit 2
exec "$py" "$root/scripts/check_tvm.py" "$@"
