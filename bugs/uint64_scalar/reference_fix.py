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
"""Reference fix: the device runtimes pass a uint64 kernel scalar in the 64-bit slot.

The bug. A uint64 scalar that a GPU kernel reads from the host (an argument, a ``T.let`` value
computed on the host) becomes a kernel parameter of type uint64: ``SplitHostDevice`` makes it
one, the code generators accept it, the module builds. The device runtimes pass kernel
scalars only as int32, uint32, int64, float32 and float64 (``GetArgConvertCode`` in
``src/runtime/pack_args.h``, shared by CUDA, ROCm, OpenCL, Vulkan and Metal), so the first
call fails with "Cannot handle uint64 as device function argument".

Upstream change (patch 0007): ``GetArgConvertCode`` maps uint64 to ``INT64_TO_INT64``: the FFI
passes every integer as 64 bits, which are the uint64 value's own. Nothing changes at compile
time.

The fix is in a runtime header, so this reference fix is a runtime too: TVM's OpenCL runtime
(the only device runtime this repository can run, ``scripts/opencl_runtime.py``) built against
the wheel's ``src/runtime`` with ``pack_args.h`` changed by patch 0007's own hunk (``git
apply``), nothing else. ``install()`` selects that build for this process; it must come before
the OpenCL runtime is loaded (the root conftest installs fixes first, and child processes
install them at start-up). Without an OpenCL device nothing of this fix can run.
"""

import subprocess
import tempfile
from pathlib import Path

from harness.reference_fixes import opencl_runtime

ROOT = Path(__file__).resolve().parents[2]
PATCH = next((ROOT / "patches").glob("0007-*.patch"))
HEADER = "pack_args.h"


def change_pack_args(path, text):
    """``src/runtime/<path>`` as patch 0007 leaves it (its hunks of that file only)."""
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "src" / "runtime" / path
        target.parent.mkdir(parents=True)
        target.write_text(text)
        proc = subprocess.run(
            ["git", "apply", f"--include=src/runtime/{path}", str(PATCH)],
            cwd=tmp,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"{PATCH.name} does not apply to src/runtime/{path}: {proc.stderr}")
        return target.read_text()


def variant():
    """The OpenCL runtime this fix runs: ``pack_args.h`` as ``change_pack_args`` leaves it."""
    return opencl_runtime().Variant("uint64_scalar", [HEADER], change_pack_args)


def install():
    """Select the OpenCL runtime built with the fix; return the undo function."""
    runtime = opencl_runtime()
    runtime.select(variant())

    def uninstall():
        if not runtime.loaded():  # a loaded runtime stays for the process
            runtime.select(None)

    return uninstall
