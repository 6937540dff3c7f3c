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
"""Open (apache/tvm 0.27, OpenCL): a reinterpret of a constant takes the address of a literal.

    .venv/bin/python generator/open/opencl_reinterpret_of_constant.py

CodeGenOpenCL prints ``T.reinterpret("uint32", T.float32(2.0))`` as
``*(uint *)(&(2.000000e+00f))``, which is no valid OpenCL C (the address of an rvalue): the
device compiler refuses the kernel at the first launch (pocl: "2 errors generated"). A kernel
that stores a bfloat16 constant into a bfloat16 buffer reaches it through BF16ComputeLegalize's
rounding, released and fixed alike (generator class ``c:device-error:error: cannot take the
address of an rvalue of type 'float'``, program 17 of ``python -m generator.kill_table --seed 1
--programs 40``). Out of this
repository's scope (a code generator's printing); prints the kernel line, exit 1 while it takes
such an address.
"""

import re
import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((1,), "uint32")):
    for t in T.thread_binding(1, thread="threadIdx.x"):
        A[0] = T.reinterpret("uint32", T.float32(2.0))


source = tvm.compile(main, target="opencl").mod.imports[0].inspect_source()
line = next(x.strip() for x in source.splitlines() if "A[0]" in x or "A_1[0]" in x or "[0] =" in x)
print(line)
sys.exit(1 if re.search(r"&\(\s*[-+0-9.]", line) else 0)
