#!/usr/bin/env bash
# Set up the Python environment this suite runs in, and print its interpreter path on
# the last line of stdout.
#
# Default: a project-local virtualenv (.venv) with the pinned requirements.txt (the
# released apache-tvm wheel). Created on first use; a second run only checks a stamp.
#
# Then, where a C++ compiler, the OpenCL headers and libOpenCL are present, TVM's OpenCL
# runtime for that TVM (scripts/opencl_runtime.py: build/opencl/, once; the device runs of
# tests/proof and bugs/*/proof load it); where they are not, one line on stderr says what to install.
#
# --tirx: the same for the extracted TIRx package instead: .venv-tirx with the pinned
# requirements-tirx.txt (apache-tvm-tirx, module tvm_tirx; no relax, no tvm module), for
# scripts/check_tvm.py (scripts/report.sh --tirx).
#
# Another TVM: set TVM_PYTHON to an interpreter that already imports the TVM you want
# (e.g. the one scripts/build_tvm.sh prints, with its PYTHONPATH / TVM_LIBRARY_PATH
# exported). That interpreter is used as it is; it must import tvm (tvm_tirx with
# --tirx), and pytest and numpy.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "setup: error: $*" >&2; exit 2; }

module=tvm venv="$root/.venv" requirements="$root/requirements.txt"
case "${1:-}" in
  "") ;;
  --tirx) module=tvm_tirx venv="$root/.venv-tirx" requirements="$root/requirements-tirx.txt" ;;
  *) die "unknown argument: $1 (usage: scripts/setup.sh [--tirx])" ;;
esac

if [ -n "${TVM_PYTHON:-}" ]; then
  [ -x "$TVM_PYTHON" ] || die "TVM_PYTHON=$TVM_PYTHON is not an executable"
  "$TVM_PYTHON" -c "import $module" 2>/dev/null \
    || die "TVM_PYTHON=$TVM_PYTHON cannot import $module (PYTHONPATH / TVM_LIBRARY_PATH exported?)"
  "$TVM_PYTHON" -c "import pytest, numpy" 2>/dev/null \
    || die "TVM_PYTHON=$TVM_PYTHON lacks pytest or numpy"
  # TVM's OpenCL runtime for a TVM built without it (one line when built or when something is
  # missing; never fails the set-up: the device runs say why they did not run)
  "$TVM_PYTHON" "$root/scripts/opencl_runtime.py" --quiet >&2 || true
  echo "$TVM_PYTHON"
  exit 0
fi

stamp="$venv/.requirements.sha256"
want=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! "$venv/bin/python" -c "import $module" 2>/dev/null; then
  command -v python3 >/dev/null || die "python3 not found"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" || die "cannot create $venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements" 2>&1 \
    | grep -v "^WARNING: Location" >&2 || true
  "$venv/bin/python" -c "import $module, pytest, numpy" 2>/dev/null || die "pip install into $venv failed"
  echo "$want" > "$stamp"
fi
if [ "$module" = tvm ]; then  # the OpenCL runtime plugin, as for TVM_PYTHON above
  "$venv/bin/python" "$root/scripts/opencl_runtime.py" --quiet >&2 || true
fi
echo "$venv/bin/python"
