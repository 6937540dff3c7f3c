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
"""FlattenBuffer remaps a host cell but leaves the thread IterVar's dom on the old buffer."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(n: T.int32, A: T.Buffer((8,), "float32")):
    cell: T.int32 = n + 1
    with T.launch_thread("blockIdx.x", cell) as b:
        t = T.launch_thread("threadIdx.x", 2)
        A[b * 2 + t] = A[b * 2 + t] * T.float32(2.0)


tvm.tirx.analysis.verify_well_formed(main)
print("input: well-formed")
mod = tvm.tirx.transform.FlattenBuffer()(tvm.IRModule({"main": main}))
try:
    tvm.tirx.analysis.verify_well_formed(mod)
except Exception as err:
    print("after FlattenBuffer:", str(err).strip().splitlines()[0])
    sys.exit("FlattenBuffer leaves the thread_extent IterVar's dom on the replaced buffer")
print("OK: FlattenBuffer's output is well-formed")
