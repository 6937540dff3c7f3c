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
"""Open (apache/tvm 0.27, released and under the reference fixes): a virtual thread whose
extent is read from a buffer makes ``tvm.compile`` die by SIGSEGV (exit 139) instead of
refusing the program.

    .venv/bin/python generator/open/vthread_loaded_extent_segfault.py

InjectVirtualThread needs a constant vthread extent; given ``L[0]``, the s_tir pipeline's
mutator crashes inside an AttrStmt visit (the backtrace shows ``ObjectMutator::DispatchNode``
for ``AttrStmtNode``). A user error naming the extent is what a user can act on. Found while
testing VerifyMemory's launch extents (a vthread is no launch, so VerifyMemory leaves it).
The compile runs in a child process: exit 1 while the child dies by a signal, 0 once it
compiles or raises an error.
"""

import subprocess
import sys
import tempfile

CHILD = """
import tvm
from tvm.script import tirx as T

@T.prim_func
def main(L: T.Buffer((1,), "int32"), B: T.Buffer((64,), "float32")):
    T.func_attr({"target": T.target("cuda")})
    for v in T.thread_binding(L[0], thread="vthread"):
        for i in T.thread_binding(8, thread="threadIdx.x"):
            B[i] = T.float32(1.0)

try:
    tvm.compile(main)
    print("compiled")
except Exception as err:
    print(type(err).__name__, str(err).strip().splitlines()[-1])
"""

with tempfile.NamedTemporaryFile("w", suffix=".py") as child:
    child.write(CHILD)
    child.flush()
    proc = subprocess.run([sys.executable, child.name], capture_output=True, text=True, check=False)
if proc.returncode < 0:
    print(f"tvm.compile died by signal {-proc.returncode}")
    sys.exit(1)
print(proc.stdout.strip() or proc.stderr.strip().splitlines()[-1])
sys.exit(0)
