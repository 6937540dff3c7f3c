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
"""tvm.compile dies by SIGSEGV on a virtual thread whose extent is not a constant."""

import subprocess
import sys

CHILD = '''
import tvm
from tvm.script import tirx as T
main = tvm.script.from_source("""
@T.prim_func
def main(L: T.Buffer((1,), "int32"), B: T.Buffer((64,), "float32")):
    for v in T.thread_binding(L[0], thread="vthread"):  # extent read from a buffer
        for i in T.thread_binding(8, thread="threadIdx.x"):
            B[i] = T.float32(1.0)
""", extra_vars={"T": T})
try:
    tvm.compile(main, target=tvm.target.Target({"kind": "cuda", "arch": "sm_80"}))
    print("compiled")
except Exception as err:
    print(f"refused: {type(err).__name__}: {str(err).strip().splitlines()[-1]}")
'''
run = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=False)
if run.returncode < 0:  # killed by a signal: the crash
    sys.exit(f"tvm.compile died by signal {-run.returncode}")
print(run.stdout.strip() or run.stderr.strip().splitlines()[-1])
