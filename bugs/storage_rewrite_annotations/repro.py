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
"""StorageRewrite drops the annotations of the allocations it rewrites."""

import sys

import tvm
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((4,), "float32")):
    B = T.alloc_buffer((4,), "float32", annotations={"disable_lower_builtin": True})
    for i in range(4):
        B[i] = A[i]
    for i in range(4):
        A[i] = B[i] * T.float32(2)


before = main.body.seq[0]  # the AllocBuffer of B
after = tvm.tirx.transform.StorageRewrite()(tvm.IRModule({"main": main}))["main"].body.seq[0]
print("before StorageRewrite:", type(before).__name__, dict(before.annotations))
print("after StorageRewrite: ", type(after).__name__, dict(after.annotations))
if dict(after.annotations) != dict(before.annotations):
    sys.exit("StorageRewrite dropped the allocation's annotations")
print("OK: the annotations are kept")
