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
"""Open (apache/tvm 0.27 and tvm-tirx, cuda): an unused bfloat16 host ``T.let`` beside a kernel
segfaults ``tvm.compile`` (this script: apache/tvm; the generator finds it on tvm-tirx too).

    .venv/bin/python generator/open/bfloat16_unused_let_segfault.py

For cuda (sm_80, ``tirx.noalias``) the process dies with SIGSEGV after every pass has run (in
the code generators); for plain "cuda" the same function stops at an ICHECK of the ill-typed
``Bind`` that BF16 legalization leaves (report bfloat16_scalar). A crash, not a diagnostic:
the generator's most severe class (``d:crash:codegen:signal-11``), hidden before by
``d:crash:*``. The compile runs in a child process; prints how it ended, exit 1 while it dies
by a signal.

With the bfloat16 fix (patch 0009, or its reference fix) it compiles: BF16ComputeLegalize skips
a cuda function whose target computes in bfloat16, its host code included, and
BF16StorageLegalize, which runs on the host function after the split, computes the arithmetic
it finds there in float32. tvm-tirx has no such fix.
"""

import subprocess
import sys
import tempfile

CHILD = """
import tvm
from tvm.script import tirx as T

@T.prim_func
def main(n: T.int32, x: T.float32, A: T.Buffer((1,), "float32")):
    T.func_attr({"tirx.noalias": True})
    v: T.let[T.bfloat16] = T.Cast("bfloat16", n) + T.bfloat16(1.0)
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A[0] = x

tvm.compile(main, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))
"""

with tempfile.NamedTemporaryFile("w", suffix=".py") as script:  # TVMScript reads the source
    script.write(CHILD)
    script.flush()
    proc = subprocess.run([sys.executable, script.name], capture_output=True, text=True)
if proc.returncode < 0:
    print(f"reproduced: tvm.compile died by signal {-proc.returncode}")
    sys.exit(1)
tail = (proc.stderr.strip().splitlines() or ["no error"])[-1]
print(f"not reproduced: the compile ended with exit status {proc.returncode}: {tail[:160]}")
